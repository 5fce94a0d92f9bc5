package io.lorekeeper.strategy;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonTypeName;

import io.swagger.v3.oas.annotations.media.Schema;

/** What any strategy's loop records about a step that did not run as planned. */
public sealed interface StepEvent extends TraceEvent {

    /**
     * A step was skipped or cut short because the question's budget (calls, tokens or wall time) does
     * not allow it; the strategy answers from what it has.
     *
     * @param step  the step that did not run ({@code research}, {@code answer}, {@code last-resort}...)
     * @param round the loop's round or cycle, where it has one
     */
    @JsonTypeName("step.budget")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "StepBudget")
    record BudgetSpent(String step, Integer round, String reason) implements StepEvent {

        public BudgetSpent(String step, String reason) {
            this(step, null, reason);
        }
    }

    /**
     * A step whose model reply was unusable (not JSON, cut, invalid items only) or whose call
     * failed; the loop goes on without it.
     *
     * @param chunk the chunk being read, for strategies that read in order
     */
    @JsonTypeName("step.failed")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "StepFailed")
    record Failed(String step, Integer round, Integer chunk, String reason) implements StepEvent {

        public Failed(String step, String reason) {
            this(step, null, null, reason);
        }

        public Failed(String step, int round, String reason) {
            this(step, round, null, reason);
        }
    }
    /**
     * The loop's own answer step did not answer (an unusable or cut reply, a spent budget), so one
     * plain call answers from the evidence it gathered: the answer that follows is a last resort,
     * with a low confidence.
     *
     * @param reason    why the loop's answer step did not answer
     * @param evidence  how many pieces of evidence the call was shown
     * @param retrieved whether the question's best hybrid hits stood in for a loop that gathered no
     *                  cited evidence
     */
    @JsonTypeName("step.last-resort")
    @Schema(name = "StepLastResort")
    record LastResortUsed(String reason, int evidence, boolean retrieved) implements StepEvent {}

    /**
     * The last-resort call's answer: written by the model from the loop's evidence without the
     * loop's checks, so its confidence is fixed and low.
     */
    @JsonTypeName("step.last-resort-answer")
    @Schema(name = "StepLastResortAnswer")
    record LastResortAnswer(String answer, double confidence) implements StepEvent {}
}
