package io.lorekeeper.eval;

import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

import io.lorekeeper.eval.EvalRunner.Judgement;
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
 * tenant, not for the question, so they never count in a strategy's own LLM cost.
 */
class Judge {

    static final String TEMPLATE = "eval/judge";
    /** The reference shown for a question the documents cannot answer (LoCoMo's adversarial category). */
    static final String UNANSWERABLE =
            "(none: the document does not contain this information; the correct answer says it is not available)";

    /** The model's structured reply. */
    record Verdict(
            @NotNull @Pattern(regexp = "correct|incorrect") String verdict, String reason) {}

    private final LlmGateway gateway;
    private final UUID tenantId;

    Judge(LlmGateway gateway, UUID tenantId) {
        this.gateway = gateway;
        this.tenantId = tenantId;
    }

    /** Judges one answer; never throws for a model failure, which becomes the judgement's error. */
    Judgement judge(EvalItem item, String answer) {
        LlmSession session = gateway.open(CallScope.tenant(tenantId), Budget.unlimited());
        try {
            Verdict v = session.structured(
                    Role.JUDGE,
                    TEMPLATE,
                    Map.of(
                            "question",
                            item.question(),
                            "reference",
                            reference(item),
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

    /**
     * Whether an item can be judged: it has a gold answer, or is one the documents cannot answer.
     * RULER is left to its string match: its answers are needles that must all appear, which is
     * not the "any one of these" a reference list means.
     */
    static boolean applies(EvalItem item) {
        return !item.dataset().equals("ruler")
                && (unanswerable(item) || item.answers().stream().anyMatch(a -> !a.isBlank()));
    }

    private static boolean unanswerable(EvalItem item) {
        return item.dataset().equals("locomo") && item.category().equals("5");
    }

    /** The gold answers, one per line; for an unanswerable question, a line saying the answer is that it is not available. */
    static String reference(EvalItem item) {
        if (unanswerable(item)) {
            return UNANSWERABLE;
        }
        return item.answers().stream()
                .filter(a -> !a.isBlank())
                .map(a -> "- " + a)
                .collect(Collectors.joining("\n"));
    }
}
