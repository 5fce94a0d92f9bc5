package io.lorekeeper.cosmir;

import java.util.Set;

import io.lorekeeper.llm.ContextLimit;
import io.lorekeeper.strategy.ChunkedReading;
import io.lorekeeper.strategy.QuestionOptions;

/**
 * COSMIR's knobs with the paper's values: 64,000-token chunks (fewer when the researcher's model
 * has a smaller context window) and gathered facts capped at {@code memoryFraction} (k = 0.125) of
 * the chunk length, i.e. 8,000 tokens.
 *
 * @param chunkLowered   the default chunk length was lowered to fit the model's context window
 * @param choicesInQuery whether the planner and the workers see a multiple-choice question's
 *                       choices as part of the query (the manager always does)
 */
record CosmirSettings(int chunkTokens, boolean chunkLowered, double memoryFraction, boolean choicesInQuery) {

    private static final Set<String> OPTIONS = Set.of("chunkTokens", "memoryFraction", "choicesInQuery");

    /** Room kept in every call for the open questions, beside the capped facts. */
    static final int QUESTIONS_TOKENS = Worker.MAX_QUESTIONS * 60;

    static CosmirSettings of(QuestionOptions options, ContextLimit researcher) {
        options.allowOnly(OPTIONS);
        double fraction = options.doubleValue("memoryFraction", 0.125, 0.01, 100);
        // An extract call carries the chunk, the gathered and the inferred facts (each within the cap) and the open
        // questions.
        ChunkedReading.ChunkSize size = ChunkedReading.chunkSize(
                "cosmir", options, chunk -> 2 * cap(fraction, chunk) + QUESTIONS_TOKENS, researcher);
        return new CosmirSettings(
                size.tokens(), size.lowered(), fraction, options.booleanValue("choicesInQuery", true));
    }

    /** The cap on gathered facts, and separately on inferred facts: k × the chunk length, in tokens. */
    int memoryTokens() {
        return cap(memoryFraction, chunkTokens);
    }

    private static int cap(double fraction, int chunkTokens) {
        return (int) Math.min(Integer.MAX_VALUE / 4, Math.round(fraction * chunkTokens));
    }
}
