package io.lorekeeper.mindgraph;

import io.lorekeeper.llm.Budget;

/**
 * The part of a question's budget the build leaves for the answer stage: a long book can take more
 * builder calls, tokens or time than the question has, and a build that spends everything leaves
 * nothing to answer with. The build stops while {@code share} of each budget dimension is still
 * unspent (at least one call), and the question is answered from the graph so far. It is on top of
 * the budget's own reserve (the last call and the last stretch of time, kept for the answer's final
 * call): the answer stage is a tool loop of several calls, so it needs more than that; and a builder
 * call that {@link Budget#stepFits} says would run into the budget's reserve is not started either.
 */
record AnswerReserve(double share) {

    /** No reserve: the ingestion-time build, whose budget is unlimited. */
    static final AnswerReserve NONE = new AnswerReserve(0);

    AnswerReserve {
        if (share < 0 || share >= 1) {
            throw new IllegalArgumentException("the answer reserve must be a share in [0, 1), was " + share);
        }
    }

    /** Whether one more builder call still leaves the reserve. */
    boolean leavesRoomAfterAnotherCall(Budget budget) {
        if (!budget.stepFits(1)) {
            return false;
        }
        if (share == 0) {
            return true;
        }
        long callsLeft = (long) budget.maxCalls() - budget.calls();
        long reservedCalls = Math.max(1, (long) Math.ceil(share * budget.maxCalls()));
        if (callsLeft - 1 < reservedCalls) {
            return false;
        }
        double tokensLeft = (double) budget.maxTokens() - budget.tokens();
        if (tokensLeft < share * budget.maxTokens()) {
            return false;
        }
        return budget.remaining().toMillis() >= share * budget.maxWallTime().toMillis();
    }
}
