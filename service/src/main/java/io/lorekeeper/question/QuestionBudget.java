package io.lorekeeper.question;

import io.lorekeeper.llm.Budget;
import io.lorekeeper.llm.LlmGateway;
import io.lorekeeper.strategy.QuestionOptions;

/**
 * A question's LLM budget from {@code options.budget = {maxCalls, maxTokens, maxSeconds}}, each
 * defaulting to {@code lorekeeper.llm.budget.*}; the wall time defaults to the strategy's own when it
 * declares a longer one.
 */
final class QuestionBudget {

    private QuestionBudget() {}

    static Budget of(QuestionOptions options, LlmGateway gateway) {
        return of(options, gateway, java.util.Optional.empty());
    }

    static Budget of(
            QuestionOptions options, LlmGateway gateway, java.util.Optional<java.time.Duration> strategyWallTime) {
        QuestionOptions budget = options.nested(QuestionOptions.BUDGET);
        budget.allowOnly(java.util.Set.of("maxCalls", "maxTokens", "maxSeconds"));
        Long calls = budget.longValue("maxCalls", 1, 10_000);
        Long tokens = budget.longValue("maxTokens", 1, 100_000_000);
        Long seconds = budget.longValue("maxSeconds", 1, 24 * 3600);
        if (seconds == null && strategyWallTime.isPresent()) {
            long strategySeconds = strategyWallTime.get().toSeconds();
            long serviceSeconds =
                    gateway.questionBudget(null, null, null).maxWallTime().toSeconds();
            seconds = Math.max(strategySeconds, serviceSeconds);
        }
        return gateway.questionBudget(
                calls == null ? null : calls.intValue(), tokens, seconds == null ? null : seconds.intValue());
    }
}
