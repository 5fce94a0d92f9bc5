package io.lorekeeper.strategy;

import java.util.Set;

/**
 * What a strategy needs before it can run.
 *
 * @param needsLlm         refused up front when no LLM endpoint is configured
 * @param memoryStages     memories (ingestion stages) whose output it cannot do without (e.g. {@code memos}): a
 *                         question waits while one is being built and is refused with {@code memory-not-ready}
 *                         when one failed or was skipped. Retrieval stages ({@code segment}, {@code embed})
 *                         are always done once a document is READY (keyword search needs no stage of its own).
 * @param optionalMemories memories it uses when they are there and does without otherwise; a question that
 *                         runs without one lists it in its {@code degraded} list
 * @param summary          one line for listings and error messages
 */
public record StrategyRequirements(
        boolean needsLlm, Set<String> memoryStages, Set<String> optionalMemories, String summary) {

    public StrategyRequirements {
        memoryStages = Set.copyOf(memoryStages);
        optionalMemories = Set.copyOf(optionalMemories);
    }

    /** Requirements with no optional memory. */
    public StrategyRequirements(boolean needsLlm, Set<String> memoryStages, String summary) {
        this(needsLlm, memoryStages, Set.of(), summary);
    }

    /** Requirements of a strategy that needs no memory beyond the retrieval index, required or optional. */
    public static StrategyRequirements of(boolean needsLlm, String summary) {
        return new StrategyRequirements(needsLlm, Set.of(), Set.of(), summary);
    }
}
