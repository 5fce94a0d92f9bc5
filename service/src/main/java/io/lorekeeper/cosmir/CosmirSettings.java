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
 * @param extractTokens  the most tokens of fact lines one extraction may add: the gathered-facts cap
 *                       (more would be pruned at once), or less where the researcher's output limit
 *                       could not carry that much ({@code extractLowered})
 * @param capInferred    whether the inferred facts are held to the gathered facts' cap (an option;
 *                       the paper leaves them unbounded, so by default they are pruned only to what
 *                       the context window leaves free)
 * @param maxQuestions   the most open questions kept (an option; 0, the default, keeps all, as the
 *                       paper does)
 * @param promptTokens   the prompt tokens the researcher's model takes, which bound what the memory
 *                       can carry besides the chunk
 */
record CosmirSettings(
        int chunkTokens,
        boolean chunkLowered,
        double memoryFraction,
        boolean choicesInQuery,
        int extractTokens,
        boolean extractLowered,
        boolean capInferred,
        int maxQuestions,
        int promptTokens) {

    private static final Set<String> OPTIONS =
            Set.of("chunkTokens", "memoryFraction", "choicesInQuery", "capInferred", "maxQuestions");

    /**
     * Room kept in every call's sizing for the open questions, beside the capped facts: about a dozen
     * questions. The list itself is not capped by default; questions beyond this take the room the
     * inferred facts would otherwise have.
     */
    static final int QUESTIONS_TOKENS = 720;

    /** Reply tokens per token of fact lines: a JSON item carries the same fact and quote with its keys and escapes. */
    static final double REPLY_PER_FACT_TOKEN = 1.2;

    /** Reply tokens beyond the items: the object's braces and a margin. */
    static final int REPLY_OVERHEAD = 200;

    static CosmirSettings of(QuestionOptions options, ContextLimit researcher) {
        options.allowOnly(OPTIONS);
        double fraction = options.doubleValue("memoryFraction", 0.125, 0.01, 100);
        // An extract call carries the chunk, the gathered facts (within the cap), at least as much of inferred facts
        // and the open questions.
        ChunkedReading.ChunkSize size = ChunkedReading.chunkSize(
                "cosmir", options, chunk -> 2 * cap(fraction, chunk) + QUESTIONS_TOKENS, researcher);
        int cap = cap(fraction, size.tokens());
        int fitsReply = (int) Math.max(1, (researcher.maxOutputTokens() - REPLY_OVERHEAD) / REPLY_PER_FACT_TOKEN);
        return new CosmirSettings(
                size.tokens(),
                size.lowered(),
                fraction,
                options.booleanValue("choicesInQuery", true),
                Math.min(cap, fitsReply),
                fitsReply < cap,
                options.booleanValue("capInferred", false),
                options.intValue("maxQuestions", 0, 0, 1_000),
                researcher.promptTokens());
    }

    /** The cap on gathered facts: k × the chunk length, in tokens. */
    int memoryTokens() {
        return cap(memoryFraction, chunkTokens);
    }

    /**
     * What the inferred facts may take now: the cap when {@code capInferred}; otherwise whatever the
     * researcher's prompt leaves beside the chunk, the gathered facts at their cap, the open questions
     * ({@code questionTokens}) and the instructions, never less than the cap.
     */
    int inferredTokens(int questionTokens) {
        if (capInferred) {
            return memoryTokens();
        }
        long room = (long) promptTokens
                - chunkTokens
                - memoryTokens()
                - Math.max(QUESTIONS_TOKENS, questionTokens)
                - ChunkedReading.PROMPT_ALLOWANCE;
        return (int) Math.max(memoryTokens(), Math.min(Integer.MAX_VALUE / 4, room));
    }

    /** The questions kept of {@code count}: all, unless {@code maxQuestions} is set. */
    int questionsKept(int count) {
        return maxQuestions == 0 ? count : Math.min(count, maxQuestions);
    }

    private static int cap(double fraction, int chunkTokens) {
        return (int) Math.min(Integer.MAX_VALUE / 4, Math.round(fraction * chunkTokens));
    }
}
