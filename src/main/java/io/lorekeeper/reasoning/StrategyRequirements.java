package io.lorekeeper.reasoning;

import java.util.Set;

/**
 * What a strategy needs before it can run.
 *
 * @param needsLlm     refused up front when no LLM endpoint is configured
 * @param memoryStages ingestion stages whose output it reads (e.g. {@code embed}, {@code memos})
 * @param summary      one line for listings and error messages
 */
public record StrategyRequirements(boolean needsLlm, Set<String> memoryStages, String summary) {
}
