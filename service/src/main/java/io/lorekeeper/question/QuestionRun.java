package io.lorekeeper.question;

import io.lorekeeper.question.QuestionStore.StoredQuestion;
import io.lorekeeper.strategy.Trace;
import io.lorekeeper.strategy.TraceEvent;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;

/**
 * One run of a question as an observation: the {@code question <strategy>} span (the root of the run's
 * trace; the job runs on a scheduler thread, outside any request) and the
 * {@code lorekeeper.question.run} timer by strategy and status; beneath it a span per strategy step,
 * whose model calls and searches are its children.
 *
 * <p>A strategy records what it did after doing it, so a step ends at each event the strategy records
 * and is named after it ({@code step rag.answer} holds the answer call); the next step opens at once.
 * Only the run's own thread moves from step to step, and only while the step is the thread's current
 * observation: an event recorded by a worker thread, or inside another observation, stays in the open
 * step rather than unwind someone else's scope.
 */
final class QuestionRun implements AutoCloseable {

    static final String NAME = "lorekeeper.question.run";
    static final String STEP = "lorekeeper.question.step";

    private final ObservationRegistry registry;
    private final Tracer tracer;
    private final Observation run;
    private final Observation.Scope runScope;
    private final Thread owner = Thread.currentThread();
    private final String strategy;
    private Observation step;
    private Observation.Scope stepScope;
    private String status = "failed";

    QuestionRun(ObservationRegistry registry, Tracer tracer, StoredQuestion question) {
        this.registry = registry;
        this.tracer = tracer;
        this.strategy = question.strategy();
        this.run = Observation.createNotStarted(NAME, registry)
                .contextualName("question " + strategy)
                .lowCardinalityKeyValue("strategy", strategy)
                .highCardinalityKeyValue("lorekeeper.question.id", question.id().toString())
                .start();
        this.runScope = run.openScope();
    }

    /** The run's trace id, for its trace's RUNNING event and the logs; null when nothing is traced. */
    String traceId() {
        Span span = tracer.currentSpan();
        String id = span == null ? null : span.context().traceId();
        return id == null || id.isBlank() || id.chars().allMatch(c -> c == '0') ? null : id;
    }

    /** The strategy's trace, each of whose events closes a step span and opens the next. */
    synchronized Trace steps(Trace trace) {
        openStep();
        return event -> {
            trace.record(event);
            nextStep(TraceEvent.typeOf(event));
        };
    }

    private synchronized void nextStep(String eventType) {
        if (step == null || Thread.currentThread() != owner || registry.getCurrentObservation() != step) {
            return;
        }
        closeStep(eventType);
        openStep();
    }

    private void openStep() {
        step = Observation.createNotStarted(STEP, registry)
                .parentObservation(run)
                .lowCardinalityKeyValue("strategy", strategy)
                .start();
        stepScope = step.openScope();
    }

    /** @param name the event that ended the step: a closed vocabulary, so it may label the step timer */
    private void closeStep(String name) {
        step.contextualName("step " + name);
        step.lowCardinalityKeyValue("step", name);
        stepScope.close();
        step.stop();
        step = null;
    }

    /** How the run ended: done, failed, requeued (it runs again later) or superseded (another writer finished it). */
    void status(String status) {
        this.status = status;
    }

    void error(Throwable error) {
        run.error(error);
    }

    @Override
    public synchronized void close() {
        if (step != null && Thread.currentThread() == owner) {
            // what followed the strategy's last event: the citation check and the stored answer
            closeStep("finish");
        }
        run.lowCardinalityKeyValue("status", status);
        runScope.close();
        run.stop();
    }
}
