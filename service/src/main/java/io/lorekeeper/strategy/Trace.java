package io.lorekeeper.strategy;

/**
 * Where a strategy writes down what it did, step by step, as typed {@link TraceEvent}s. Events are
 * stored in order, streamed to clients as progress, and kept as the trace.
 */
@FunctionalInterface
public interface Trace {

    void record(TraceEvent event);

    /** A trace that keeps nothing, for strategies called outside a question (benchmarks, tests). */
    Trace NONE = event -> {};
}
