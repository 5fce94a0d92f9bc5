package io.lorekeeper.llm;

/**
 * Reply limits for profiles that set none. A limit too small for what a role returns cuts its JSON
 * mid-object; these fit the longest replies each role writes (a graph builder's edits for an
 * 8,192-token block, an integrator's notes, a worker's extracted facts) with room to spare.
 * Reasoning models spend their limit on hidden reasoning too, so they get more.
 */
final class OutputLimits {

    private static final int REASONING_ALLOWANCE = 16_384;

    private OutputLimits() {}

    static int forRole(Role role, boolean reasoningModel) {
        int visible = switch (role) {
            case BUILDER, RESEARCHER -> 8_192;
            case MEMORIZER, PLANNER, CRITIC -> 4_096;
            case JUDGE, ANSWERER -> 2_048;
            default -> 4_096;
        };
        return reasoningModel ? visible + REASONING_ALLOWANCE : visible;
    }
}
