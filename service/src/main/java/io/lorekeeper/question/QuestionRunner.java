package io.lorekeeper.question;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashSet;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CancellationException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import io.lorekeeper.document.DocumentInfo;
import io.lorekeeper.document.Documents;
import io.lorekeeper.document.MemoryBuilds;
import io.lorekeeper.document.MemoryState;
import io.lorekeeper.llm.BudgetExhaustedException;
import io.lorekeeper.llm.CallScope;
import io.lorekeeper.llm.LlmGateway;
import io.lorekeeper.llm.LlmSession;
import io.lorekeeper.llm.UnusableReplyException;
import io.lorekeeper.platform.Failures;
import io.lorekeeper.platform.IllegalTransitionException;
import io.lorekeeper.platform.RetryLaterException;
import io.lorekeeper.platform.WorkerName;
import io.lorekeeper.question.QuestionStore.StoredQuestion;
import io.lorekeeper.retrieval.RerankScope;
import io.lorekeeper.retrieval.Retriever;
import io.lorekeeper.strategy.AnswerStrategy;
import io.lorekeeper.strategy.Cancellation;
import io.lorekeeper.strategy.Citation;
import io.lorekeeper.strategy.CitationVerifier;
import io.lorekeeper.strategy.QuestionContext;
import io.lorekeeper.strategy.QuestionOptions;
import io.lorekeeper.strategy.Strategies;
import io.lorekeeper.strategy.StrategyResult;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Tracer;
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
    private final MemoryReadiness memories;
    private final InstantSource clock;
    private final WorkerName worker;
    private final MemoryBuilds builds;
    private final QuestionMetrics metrics;
    private final ObservationRegistry observations;
    private final Tracer tracer;
    private final FollowUps followUps;

    QuestionRunner(
            QuestionStore store,
            Strategies strategies,
            Documents documents,
            Retriever retriever,
            CitationVerifier verifier,
            QuestionSettings settings,
            JsonMapper json,
            LlmGateway gateway,
            MemoryReadiness memories,
            InstantSource clock,
            WorkerName worker,
            MemoryBuilds builds,
            QuestionMetrics metrics,
            ObservationRegistry observations,
            Tracer tracer,
            FollowUps followUps) {
        this.followUps = followUps;
        this.metrics = metrics;
        this.observations = observations;
        this.tracer = tracer;
        this.worker = worker;
        this.builds = builds;
        this.memories = memories;
        this.clock = clock;
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
        TraceRecorder trace = new TraceRecorder(id, store, json);
        MemoryReadiness.Report memory;
        try {
            memory = awaitMemories(question, trace);
        } catch (WaitingForMemory waiting) {
            throw waiting;
        } catch (RuntimeException e) {
            fail(id, trace, e);
            return;
        }
        try {
            store.change(id, Question::start);
        } catch (IllegalTransitionException finished) {
            log.info("Question {} was not started: {}", id, finished.getMessage());
            return;
        }
        metrics.started(question);
        try (QuestionRun observed = new QuestionRun(observations, tracer, question)) {
            try {
                answer(question, memory, trace, observed);
                observed.status("done");
            } catch (RetryLaterException later) {
                observed.status("requeued");
                requeue(id, trace, later);
            } catch (IllegalTransitionException movedOn) {
                // another writer finished or re-queued it meanwhile (a revived job on a second replica, say): its
                // state stands
                observed.status("superseded");
                log.info("Question {} left as another writer put it: {}", id, movedOn.getMessage());
            } catch (Exception | Error e) {
                if (e instanceof VirtualMachineError fatal) {
                    throw fatal;
                }
                observed.error(e);
                fail(id, trace, e);
            }
        } finally {
            metrics.ended(question);
        }
    }

    /** Runs the strategy of a started question, checks its citations and stores the answer. */
    private void answer(
            StoredQuestion question, MemoryReadiness.Report memory, TraceRecorder trace, QuestionRun observed) {
        UUID id = question.id();
        long started = System.nanoTime();
        recordRunStart(id, question.strategy(), trace, observed.traceId());
        AnswerStrategy strategy = strategies.require(question.strategy());
        List<DocumentInfo> docs = documents.requireReady(question.tenantId(), question.documentIds(), "documentIds");
        QuestionOptions options = new QuestionOptions(question.options());
        LlmSession llm = gateway.open(
                        CallScope.question(question.tenantId(), id),
                        QuestionBudget.of(options, gateway, strategy.defaultWallTime(options, docs)))
                .reportIssuesTo(issue -> trace.record(LlmEvent.of(issue)));
        // the answer's text as the model writes it; deltas bypass the step spans (they are not steps)
        AnswerDrafts drafts = new AnswerDrafts(trace, settings.answerDeltaInterval());
        llm.streamAnswersTo(drafts);
        Instant deadline = deadline(llm);
        recordDegraded(id, memory, trace);
        String asked = followUps.read(question, llm, trace);
        QuestionContext context = new QuestionContext(
                id,
                asked,
                question.choices(),
                options,
                docs,
                retriever.within(new RerankScope(llm, reranked -> trace.record(SearchEvent.of(reranked)))),
                llm,
                observed.steps(trace),
                () -> clock.instant().isAfter(deadline));
        StrategyResult result;
        try {
            result = strategy.answer(context);
        } catch (BudgetExhaustedException | UnusableReplyException | CancellationException stopped) {
            result = withoutModel(id, strategy, context, stopped);
        }
        StrategyResult answered = result.withCitations(checkCitations(question, result, trace));
        recordFallback(id, answered, trace);
        if (drafts.streamed()) {
            trace.record(drafts.replacing(
                    answered.answer(),
                    answered.citations(),
                    result.citations().size() - answered.citations().size()));
        }
        RunEvent.Status done = RunEvent.Status.done(
                (System.nanoTime() - started) / 1_000_000,
                llm.budget().calls(),
                llm.budget().tokens());
        // The DONE event commits with the answer or not at all: a replica killed between two separate
        // commits left a DONE event on a RUNNING question, whose revived job then finished it twice.
        // It is the last event: an event stream ends once it sees a finished status.
        store.change(id, q -> {
            q.complete(answered);
            trace.record(done);
        });
        countFinished(id);
    }

    /** Counts a question that reached DONE or FAILED, as stored (its degraded list, its budget flag). */
    private void countFinished(UUID id) {
        store.find(id).filter(q -> q.status().isFinished()).ifPresent(metrics::finished);
    }

    /**
     * When the strategy is stopped: the budget stops the strategy's loop and leaves it time to answer;
     * the hard stop comes a minute after the budget's end (or the service's limit, when later), for a
     * strategy that does not stop.
     */
    private Instant deadline(LlmSession llm) {
        Duration budgetWall = llm.budget().maxWallTime().plus(Duration.ofMinutes(1));
        return clock.instant()
                .plus(budgetWall.compareTo(settings.maxWallTime()) > 0 ? budgetWall : settings.maxWallTime());
    }

    /** An optional memory is missing: the strategy runs without it, and the answer says so. */
    private void recordDegraded(UUID id, MemoryReadiness.Report memory, TraceRecorder trace) {
        if (memory.degraded().isEmpty()) {
            return;
        }
        List<MemoryGap> missing = MemoryGap.of(memory.degraded());
        store.change(
                id,
                q -> q.degrade(json.valueToTree(
                        missing.stream().map(Degradation::missing).toList())));
        trace.record(new RunEvent.Degraded(missing));
    }

    /** Another strategy answered in place of the one asked for (auto without a model): the answer says so. */
    private void recordFallback(UUID id, StrategyResult result, TraceRecorder trace) {
        StrategyResult.Fallback fallback = result.fallback();
        if (fallback == null) {
            return;
        }
        trace.record(new RunEvent.Fallback(fallback.strategy(), fallback.answeredBy(), fallback.reason()));
        Degradation entry = Degradation.fallback(fallback.strategy(), fallback.answeredBy(), fallback.reason());
        store.change(id, q -> q.degrade(json.valueToTree(List.of(entry))));
    }

    /** The citations that quote their documents exactly; the trace counts those dropped. */
    private List<Citation> checkCitations(StoredQuestion question, StrategyResult result, TraceRecorder trace) {
        CitationVerifier.Verification verification =
                verifier.verify(result.citations(), new HashSet<>(question.documentIds()));
        trace.record(new RunEvent.Citations(
                verification.kept().size(),
                verification.dropped().size(),
                verification.dropped().stream().limit(5).map(Citation::quote).toList()));
        return verification.kept();
    }

    /** Rate-limited for longer than is worth waiting here: the job runs again later. */
    private void requeue(UUID id, TraceRecorder trace, RetryLaterException later) {
        try {
            store.change(id, Question::requeue);
        } catch (IllegalTransitionException movedOn) {
            log.info("Question {} not re-queued: {}", id, movedOn.getMessage());
            return;
        }
        trace.record(new RunEvent.Requeued(later.getMessage(), later.after().toSeconds()));
        throw later;
    }

    /**
     * The RUNNING status event, naming the worker; after a run that stopped without finishing (its
     * replica died, or a long rate limit re-queued it), first a {@code run.restarted} event saying where
     * that run's events began and ended, since the trace keeps them and the new run's follow.
     */
    private void recordRunStart(UUID id, String strategy, TraceRecorder trace, String traceId) {
        store.lastRunStart(id)
                .ifPresent(earlier -> trace.record(new RunEvent.Restarted(
                        earlier,
                        trace.nextSeq() - 1,
                        worker.value(),
                        "an earlier run of this question stopped before it finished (its worker stopped, or it was"
                                + " re-queued); its events above are kept, this run's follow")));
        trace.record(RunEvent.Status.running(strategy, worker.value(), traceId));
    }

    /**
     * The answer of a strategy that stopped without one (its budget, its time or an unusable reply ended
     * even its last resort): the extractive strategy's, which needs no model, marked as a fallback in the
     * trace and the answer's {@code degraded} list. A failing endpoint is not covered: that question fails
     * with the model's reason, and can be retried.
     */
    private StrategyResult withoutModel(
            UUID id, AnswerStrategy strategy, QuestionContext context, RuntimeException stopped) {
        if (strategy.name().equals(FALLBACK)) {
            throw stopped;
        }
        String reason = stopped instanceof CancellationException
                ? "the question ran past its wall-time limit"
                : Failures.describe(stopped);
        context.trace().record(new RunEvent.Fallback(strategy.name(), FALLBACK, reason));
        Degradation fallback = Degradation.fallback(strategy.name(), FALLBACK, reason);
        store.change(id, q -> q.degrade(json.valueToTree(List.of(fallback))));
        StrategyResult answer = strategies
                .require(FALLBACK)
                .answer(new QuestionContext(
                        id,
                        context.question(),
                        context.choices(),
                        QuestionOptions.none(),
                        context.documents(),
                        context.retriever(),
                        context.llm(),
                        context.trace(),
                        Cancellation.NEVER));
        boolean limited = !(stopped instanceof UnusableReplyException);
        return new StrategyResult(
                answer.answer(),
                answer.mode(),
                answer.citations(),
                answer.confidence(),
                answer.choiceIndex(),
                limited || answer.budgetLimited(),
                answer.kind(),
                null);
    }

    /** The strategy that answers when another stopped without an answer: it needs no model. */
    private static final String FALLBACK = Strategies.DEFAULT;

    private void fail(UUID id, TraceRecorder trace, Throwable e) {
        String reason = reason(e);
        log.warn("Question {} failed: {}", id, reason, e);
        try {
            trace.record(RunEvent.Status.failed(reason));
        } catch (RuntimeException traceFailure) {
            log.warn("Could not record the failure of question {} in its trace", id, traceFailure);
        }
        try {
            store.change(id, q -> q.fail(reason));
        } catch (IllegalTransitionException movedOn) {
            log.info("Question {} not marked failed: {}", id, movedOn.getMessage());
            return;
        }
        countFinished(id);
    }

    /**
     * The strategy's memories, once every one it needs is built. While one is still being built, or
     * failed with another attempt scheduled, the question stays QUEUED, says what it waits for, and its
     * job looks again shortly; one skipped because it is built on demand is started (unless
     * {@code options.buildMemories} is false) and waited for. A memory that failed for good or was
     * skipped for another reason, or a wait past its limit, fails the question with the reason.
     */
    private MemoryReadiness.Report awaitMemories(StoredQuestion question, TraceRecorder trace) {
        AnswerStrategy strategy = strategies.require(question.strategy());
        QuestionOptions options = new QuestionOptions(question.options());
        MemoryReadiness.Report report = memories.check(strategy, options, question.documentIds());
        if (!report.unavailable().isEmpty()) {
            throw MemoryReadiness.notReady(strategy.name(), report.unavailable());
        }
        List<MemoryState> waiting = new java.util.ArrayList<>(report.waitingFor());
        waiting.addAll(report.retrying());
        if (!report.buildable().isEmpty()) {
            if (!options.buildMemories()) {
                throw MemoryReadiness.notReady(strategy.name(), report.buildable());
            }
            List<MemoryState> started = startBuilding(question, report.buildable());
            if (!started.isEmpty()) {
                trace.record(MemoryReadiness.buildEvent(strategy.name(), started));
            }
            // none started: its document is being ingested, or another question got there first; look again
            waiting.addAll(started.isEmpty() ? report.buildable() : started);
        }
        if (waiting.isEmpty()) {
            return report;
        }
        List<MemoryGap> waitingFor = MemoryGap.of(waiting);
        if (question.createdAt().plus(settings.maxMemoryWait()).isBefore(java.time.Instant.now())) {
            throw new IllegalStateException("stopped waiting for memory after "
                    + settings.maxMemoryWait().toMinutes() + " min: " + waitingFor);
        }
        if (question.waitingFor() == null || !waitingFor.equals(question.waitingFor())) {
            store.change(question.id(), q -> q.waitFor(json.valueToTree(waitingFor)));
            trace.record(new RunEvent.Waiting(waitingFor));
        }
        throw new WaitingForMemory(settings.memoryPoll());
    }

    /**
     * Starts building on-demand memories the question needs (its intake does so; this is for one
     * retried, or whose memory was skipped again meanwhile). A document being ingested right now is
     * looked at again on the next poll.
     */
    private List<MemoryState> startBuilding(StoredQuestion question, List<MemoryState> buildable) {
        try {
            return builds.build(question.tenantId(), buildable);
        } catch (io.lorekeeper.platform.ApiProblem refused) {
            if (refused.type().equals("ingestion-running")) {
                log.info("Question {} waits for document ingestion before building {}", question.id(), buildable);
                return List.of();
            }
            throw refused;
        }
    }

    /** Re-queues the answer job without a trace event of its own: the waiting event said it once. */
    static final class WaitingForMemory extends RetryLaterException {
        WaitingForMemory(java.time.Duration poll) {
            super("waiting for a memory to be built", poll);
        }
    }

    private static String reason(Throwable e) {
        if (e instanceof java.util.concurrent.CancellationException) {
            return "stopped: the question ran longer than its wall-time limit";
        }
        return Failures.describe(e);
    }
}
