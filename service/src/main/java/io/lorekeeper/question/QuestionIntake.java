package io.lorekeeper.question;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import io.lorekeeper.document.DocumentInfo;
import io.lorekeeper.document.Documents;
import io.lorekeeper.document.MemoryBuilds;
import io.lorekeeper.document.MemoryState;
import io.lorekeeper.llm.LlmGateway;
import io.lorekeeper.platform.ApiProblem;
import io.lorekeeper.question.AnswerJob.AnswerScheduler;
import io.lorekeeper.question.QuestionApi.AskRequest;
import io.lorekeeper.security.CurrentTenant;
import io.lorekeeper.security.TenantQuotas;
import io.lorekeeper.strategy.AnswerStrategy;
import io.lorekeeper.strategy.QuestionOptions;
import io.lorekeeper.strategy.Strategies;
import tools.jackson.databind.json.JsonMapper;

/** Checks a question completely before accepting it, so that a bad request fails now with a 4xx and not later in a job. */
@Service
class QuestionIntake {

    private static final int MAX_CHOICES = 26;
    private static final int MAX_CHOICE_LENGTH = 2000;

    private final QuestionRepository questions;
    private final Strategies strategies;
    private final Documents documents;
    private final AnswerScheduler scheduler;
    private final CurrentTenant tenant;
    private final QuestionSettings settings;
    private final LlmGateway gateway;
    private final MemoryReadiness memories;
    private final JsonMapper json;
    private final TenantQuotas quotas;
    private final MemoryBuilds builds;
    private final QuestionStore store;
    private final ThreadStore threads;
    private final ThreadSettings threadSettings;

    QuestionIntake(
            QuestionRepository questions,
            Strategies strategies,
            Documents documents,
            AnswerScheduler scheduler,
            CurrentTenant tenant,
            QuestionSettings settings,
            LlmGateway gateway,
            MemoryReadiness memories,
            JsonMapper json,
            TenantQuotas quotas,
            MemoryBuilds builds,
            QuestionStore store,
            ThreadStore threads,
            ThreadSettings threadSettings) {
        this.threads = threads;
        this.threadSettings = threadSettings;
        this.quotas = quotas;
        this.builds = builds;
        this.store = store;
        this.memories = memories;
        this.gateway = gateway;
        this.questions = questions;
        this.json = json;
        this.strategies = strategies;
        this.documents = documents;
        this.scheduler = scheduler;
        this.tenant = tenant;
        this.settings = settings;
    }

    /**
     * Stores the question and its job in one transaction: both or neither. Kept whole (over 60 lines) so
     * that it reads in the order it must run: every check of the request before anything is stored,
     * then the question, the memories it builds on demand, and its job.
     */
    @Transactional
    UUID ask(AskRequest request) {
        if (request == null) {
            throw ApiProblem.invalid("body", "a JSON body is required");
        }
        String question = request.question() == null ? "" : request.question().strip();
        if (question.isEmpty()) {
            throw ApiProblem.invalid("question", "question must not be blank");
        }
        if (question.length() > settings.maxQuestionLength()) {
            throw ApiProblem.invalid(
                    "question", "question must be at most " + settings.maxQuestionLength() + " characters");
        }
        UUID threadId = request.threadId();
        List<UUID> documentIds = request.documentIds();
        if (threadId != null) {
            ThreadStore.StoredThread thread =
                    threads.find(tenant.id(), threadId).orElseThrow(() -> ApiProblem.notFound("Thread", threadId));
            if (thread.questions() >= threadSettings.maxQuestions()) {
                throw ApiProblem.conflict(
                        "thread-full",
                        "Thread full",
                        "thread " + threadId + " holds " + thread.questions() + " questions, the most one may"
                                + " (lorekeeper.threads.max-questions); start another thread",
                        "threadId");
            }
            if (documentIds == null || documentIds.isEmpty()) {
                documentIds = threads.lastDocuments(threadId)
                        .orElseThrow(() -> ApiProblem.invalid(
                                "documentIds", "the thread's first question must name its documents"));
            }
        }
        if (documentIds != null && documentIds.size() > settings.maxDocuments()) {
            throw ApiProblem.invalid("documentIds", "at most " + settings.maxDocuments() + " documents per question");
        }
        validateChoices(request.choices());
        AnswerStrategy strategy = strategies.require(request.strategy());
        Map<String, Object> options = request.options() == null ? Map.of() : request.options();
        QuestionOptions parsed = new QuestionOptions(options);
        strategy.validate(parsed);
        QuestionBudget.of(parsed, gateway);
        List<UUID> ids = documents.requireReady(tenant.id(), documentIds, "documentIds").stream()
                .map(DocumentInfo::id)
                .toList();
        List<MemoryState> toBuild = memories.requireBuildable(strategy, parsed, ids);
        if (strategy.requirements().needsLlm()) {
            quotas.requireTokens();
        }
        UUID id = UUID.randomUUID();
        List<String> choices = request.choices() == null || request.choices().isEmpty() ? null : request.choices();
        // flushed: the trace event below references the row
        questions.saveAndFlush(Question.ask(
                id,
                tenant.id(),
                ids,
                question,
                strategy.name(),
                choices == null ? null : json.valueToTree(choices),
                json.valueToTree(options),
                threadId));
        if (!toBuild.isEmpty()) {
            // memories built on demand: asking for them builds them (a reindex naming them, quota included),
            // and the question waits for them like any memory in progress
            List<MemoryState> started = builds.build(tenant.id(), toBuild);
            if (!started.isEmpty()) {
                new TraceRecorder(id, store, json).record(MemoryReadiness.buildEvent(strategy.name(), started));
            }
        }
        scheduler.schedule(id);
        return id;
    }

    /**
     * Queues a FAILED question again with its job, in one transaction; any other state is refused
     * (a 409), and so is a retry racing another change of the same question.
     */
    @Transactional
    void retry(UUID id) {
        Question question =
                questions.findByIdAndTenantId(id, tenant.id()).orElseThrow(() -> ApiProblem.notFound("Question", id));
        question.retry();
        quotas.requireTokens();
        // written first: a concurrent change of the question fails here (409), before the job row is touched
        questions.saveAndFlush(question);
        scheduler.schedule(id);
    }

    private static void validateChoices(List<String> choices) {
        if (choices == null) {
            return;
        }
        if (choices.size() == 1 || choices.size() > MAX_CHOICES) {
            throw ApiProblem.invalid("choices", "a multiple-choice question needs 2 to " + MAX_CHOICES + " choices");
        }
        for (int i = 0; i < choices.size(); i++) {
            String choice = choices.get(i);
            if (choice == null || choice.isBlank()) {
                throw ApiProblem.invalid("choices[" + i + "]", "a choice must not be blank");
            }
            if (choice.length() > MAX_CHOICE_LENGTH) {
                throw ApiProblem.invalid(
                        "choices[" + i + "]", "a choice must be at most " + MAX_CHOICE_LENGTH + " characters");
            }
        }
    }
}
