package io.lorekeeper.strategy;

/**
 * Where a strategy writes down what it did, step by step, as typed {@link TraceEvent}s. Events are
 * stored in order, streamed to clients as progress, and kept as the trace.
 */
public interface Trace {

    void record(TraceEvent event);

    /**
     * An untyped event.
     *
     * @deprecated being replaced by {@link #record(TraceEvent)} at every call site
     */
    @Deprecated
    void record(String type, Object payload);

    /** A trace that keeps nothing, for strategies called outside a question (benchmarks, tests). */
    Trace NONE = new Trace() {
        @Override
        public void record(TraceEvent event) {}

        @Override
        public void record(String type, Object payload) {}
    };
}
