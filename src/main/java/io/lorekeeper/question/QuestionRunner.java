package io.lorekeeper.question;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import io.lorekeeper.document.DocumentInfo;
import io.lorekeeper.document.Documents;
import io.lorekeeper.llm.CallScope;
import io.lorekeeper.llm.LlmGateway;
import io.lorekeeper.llm.LlmSession;
import io.lorekeeper.platform.Failures;
import io.lorekeeper.platform.RetryLaterException;
import io.lorekeeper.question.QuestionStore.StoredQuestion;
import io.lorekeeper.reasoning.AnswerStrategy;
import io.lorekeeper.reasoning.Cancellation;
import io.lorekeeper.reasoning.Citation;
import io.lorekeeper.reasoning.CitationVerifier;
import io.lorekeeper.reasoning.QuestionContext;
import io.lorekeeper.reasoning.QuestionOptions;
import io.lorekeeper.reasoning.Strategies;
import io.lorekeeper.reasoning.StrategyResult;
import io.lorekeeper.retrieval.Retriever;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs one question: its strategy over its documents, then the citation check, then the stored
 * answer. Any failure (strategy, LLM, database) fails this question alone, with the reason
 * recorded and visible; the question can be retried.
 */
@Component
class QuestionRunner {

    private static final Logger log = LoggerFactory.getLogger(QuestionRunner.class);

    private final QuestionStore store;
    private final Strategies strategies;
    private final Documents documents;
    private final Retriever retriever;
    private final CitationVerifier verifier;
    private final QuestionSettings settings;
    private final JsonMapper json;
    private final LlmGateway gateway;

    QuestionRunner(QuestionStore store, Strategies strategies, Documents documents, Retriever retriever,
            CitationVerifier verifier, QuestionSettings settings, JsonMapper json, LlmGateway gateway) {
        this.gateway = gateway;
        this.store = store;
        this.strategies = strategies;
        this.documents = documents;
        this.retriever = retriever;
        this.verifier = verifier;
        this.settings = settings;
        this.json = json;
    }

    void run(UUID id) {
        StoredQuestion question = store.find(id).orElse(null);
        if (question == null || question.status().isFinished()) {
            return;
        }
        store.markRunning(id);
        TraceRecorder trace = new TraceRecorder(id, store, json);
        long started = System.nanoTime();
        long deadline = started + settings.maxWallTime().toNanos();
        try {
            trace.record("status", Map.of("status", "RUNNING", "strategy", question.strategy()));
            AnswerStrategy strategy = strategies.require(question.strategy());
            List<DocumentInfo> docs = documents.requireReady(question.tenantId(), question.documentIds(), "documentIds");
            Cancellation cancellation = () -> System.nanoTime() > deadline;
            QuestionOptions options = new QuestionOptions(question.options());
            LlmSession llm = gateway.open(CallScope.question(question.tenantId(), id), QuestionBudget.of(options, gateway))
                    .reportIssuesTo(issue -> trace.record("llm." + issue.kind(), issue));
            QuestionContext context = new QuestionContext(id, question.question(), question.choices(), options, docs,
                    retriever, llm, trace, cancellation);
            StrategyResult result = strategy.answer(context);
            CitationVerifier.Verification verification = verifier.verify(result.citations(), new HashSet<>(question.documentIds()));
            Map<String, Object> check = new LinkedHashMap<>();
            check.put("kept", verification.kept().size());
            check.put("dropped", verification.dropped().size());
            check.put("droppedQuotes", verification.dropped().stream().limit(5).map(Citation::quote).toList());
            trace.record("citations", check);
            store.complete(id, result.withCitations(verification.kept()));
            trace.record("status", Map.of("status", "DONE", "ms", (System.nanoTime() - started) / 1_000_000,
                    "llmCalls", llm.budget().calls(), "llmTokens", llm.budget().tokens()));
        } catch (RetryLaterException later) {
            // Rate-limited for longer than is worth waiting here: the job runs again later.
            store.markQueued(id);
            trace.record("requeued", Map.of("reason", later.getMessage(), "afterSeconds", later.after().toSeconds()));
            throw later;
        } catch (Exception | Error e) {
            if (e instanceof VirtualMachineError fatal) {
                throw fatal;
            }
            String reason = reason(e);
            log.warn("Question {} failed: {}", id, reason, e);
            store.fail(id, reason);
            try {
                trace.record("status", Map.of("status", "FAILED", "reason", reason));
            } catch (RuntimeException traceFailure) {
                log.warn("Could not record the failure of question {} in its trace", id, traceFailure);
            }
        }
    }

    private static String reason(Throwable e) {
        if (e instanceof java.util.concurrent.CancellationException) {
            return "stopped: the question ran longer than its wall-time limit";
        }
        return Failures.describe(e);
    }

}
