package io.lorekeeper.llm;

/** One model call as recorded in {@code llm_call}: usage, latency, cache and outcome. */
record CallRecord(
        CallScope scope,
        Role role,
        String profile,
        String model,
        String template,
        long promptTokens,
        long completionTokens,
        long latencyMs,
        boolean cacheHit,
        String outcome,
        String error) {}
