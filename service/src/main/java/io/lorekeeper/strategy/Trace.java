package io.lorekeeper.strategy;

/**
 * Where a strategy writes down what it did, step by step: each event has a type
 * ({@code retrieve}, {@code plan}, {@code probe}, {@code memory.update}...) and a JSON-serialisable
 * payload. Events are stored in order, streamed to clients as progress, and kept as the trace.
 */
public interface Trace {

    void record(String type, Object payload);

    /** A trace that keeps nothing, for strategies called outside a question (benchmarks, tests). */
    Trace NONE = (type, payload) -> {};
}
