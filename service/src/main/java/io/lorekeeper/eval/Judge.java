package io.lorekeeper.eval;

import java.util.Map;
import java.util.UUID;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

import io.lorekeeper.evaluator.EvalItem;
import io.lorekeeper.evaluator.Grader;
import io.lorekeeper.evaluator.Judgement;
import io.lorekeeper.llm.Budget;
import io.lorekeeper.llm.CallScope;
import io.lorekeeper.llm.LlmGateway;
import io.lorekeeper.llm.LlmSession;
import io.lorekeeper.llm.Role;
import io.lorekeeper.platform.Failures;

/**
 * LLM-as-judge: asks the model (the {@code judge} role's profile, through the gateway, so with its
 * retries, call log and response cache) whether an answer means the same as the gold answer. Runs
 * in the evaluating process, not in the service being evaluated; its calls are recorded for the
 * tenant, not for the question, so they never count in a strategy's own LLM cost. The evaluator library's
 * {@link Grader}, implemented with the service's gateway.
 */
class Judge implements Grader {

    static final String TEMPLATE = "eval/judge";

    /** The model's structured reply. */
    record Verdict(
            @NotNull @Pattern(regexp = "correct|incorrect") String verdict, String reason) {}

    private final LlmGateway gateway;
    private final UUID tenantId;

    Judge(LlmGateway gateway, UUID tenantId) {
        this.gateway = gateway;
        this.tenantId = tenantId;
    }

    @Override
    public Judgement grade(EvalItem item, String answer) {
        LlmSession session = gateway.open(CallScope.tenant(tenantId), Budget.unlimited());
        try {
            Verdict v = session.structured(
                    Role.JUDGE,
                    TEMPLATE,
                    Map.of(
                            "question",
                            item.question(),
                            "reference",
                            Grader.reference(item),
                            "candidate",
                            answer == null ? "" : answer),
                    Verdict.class);
            return new Judgement(
                    v.verdict(),
                    v.reason(),
                    null,
                    session.budget().calls(),
                    session.budget().tokens());
        } catch (RuntimeException e) {
            return new Judgement(
                    null,
                    null,
                    Failures.describe(e),
                    session.budget().calls(),
                    session.budget().tokens());
        }
    }
}
