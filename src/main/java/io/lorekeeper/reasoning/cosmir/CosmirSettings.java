package io.lorekeeper.reasoning.cosmir;

import java.util.Set;

import io.lorekeeper.reasoning.QuestionOptions;

/**
 * COSMIR's knobs with the paper's values: 64,000-token chunks and gathered facts capped at
 * {@code memoryFraction} (k = 0.125) of the chunk length, i.e. 8,000 tokens.
 *
 * @param choicesInQuery whether the planner and the workers see a multiple-choice question's
 *                       choices as part of the query (the manager always does)
 */
record CosmirSettings(int chunkTokens, double memoryFraction, boolean choicesInQuery) {

    private static final Set<String> OPTIONS = Set.of("chunkTokens", "memoryFraction", "choicesInQuery");

    static CosmirSettings of(QuestionOptions options) {
        options.allowOnly(OPTIONS);
        return new CosmirSettings(options.intValue("chunkTokens", 64_000, 32, 2_000_000),
                options.doubleValue("memoryFraction", 0.125, 0.01, 100),
                options.booleanValue("choicesInQuery", true));
    }

    /** The cap on gathered facts, and separately on inferred facts: k × the chunk length, in tokens. */
    int memoryTokens() {
        return (int) Math.round(memoryFraction * chunkTokens);
    }
}
