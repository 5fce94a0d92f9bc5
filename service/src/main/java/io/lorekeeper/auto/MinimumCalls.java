package io.lorekeeper.auto;

/**
 * The fewest model calls with which a strategy can give a useful answer, so that auto does not
 * pick a research loop the budget would stop after its first step.
 */
final class MinimumCalls {

    private static final long MINDGRAPH_BLOCK_TOKENS = 8_192;
    private static final long COSMIR_CHUNK_TOKENS = 64_000;

    private MinimumCalls() {}

    static int of(Candidate candidate, Situation situation) {
        return switch (candidate.strategy()) {
            case "extractive" -> 0;
            case "rag" -> 1;
            // one research round (plan, integrate, reflect) and the answer
            case "gam", "memcot" -> 4;
            // a build call per block unless the shared graph is used, then the answer
            case "mindgraph" ->
                "shared".equals(candidate.options().get("graph"))
                        ? 1
                        : (int) Math.min(Integer.MAX_VALUE - 1, ceil(situation.tokens(), MINDGRAPH_BLOCK_TOKENS)) + 1;
            // extract, infer and refine per chunk, then plan and manage
            case "cosmir", "chain-of-agents" ->
                (int) Math.min(Integer.MAX_VALUE / 3, ceil(situation.tokens(), COSMIR_CHUNK_TOKENS)) * 3 + 2;
            default -> 3;
        };
    }

    private static long ceil(long a, long b) {
        return Math.max(1, (a + b - 1) / b);
    }
}
