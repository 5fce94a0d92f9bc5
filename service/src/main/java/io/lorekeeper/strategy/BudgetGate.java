package io.lorekeeper.strategy;

import java.util.Optional;

import io.lorekeeper.llm.Budget;

/**
 * The one check every research loop asks before a step: may it start? Not when the question was
 * cancelled or ran out of wall time, not when the step's calls would not finish before the answer's
 * reserve of the budget ({@link Budget#stepFits}), and not when the tokens it is expected to bring about
 * would pass the token budget. A step that may not start is recorded in the trace as
 * {@link StepEvent.BudgetSpent} with the reason, so a reader sees where the loop stopped and why; the
 * loop then answers from what it has.
 */
public record BudgetGate(Cancellation cancellation, Budget budget, Trace trace) {

    /** The gate of a question's loop: its cancellation, its budget and its trace. */
    public static BudgetGate of(QuestionContext context) {
        return new BudgetGate(context.cancellation(), context.llm().budget(), context.trace());
    }

    /**
     * Why the step may not start, recorded in the trace; empty when it may.
     *
     * @param step   the step's name in the trace ({@code plan}, {@code reading}, {@code cycle}...)
     * @param round  its round or chunk, or null for a step that has none
     * @param calls  the model calls the step makes at most
     * @param tokens the tokens those calls are expected to bring about; 0 when the loop does not estimate them
     */
    public Optional<String> stop(String step, Integer round, int calls, long tokens) {
        Optional<String> why = whyNot(calls, tokens);
        why.ifPresent(reason -> trace.record(new StepEvent.BudgetSpent(step, round, reason)));
        return why;
    }

    /** Whether the step may start; if not, the stop is recorded ({@link #stop}). */
    public boolean mayStart(String step, Integer round, int calls) {
        return stop(step, round, calls, 0).isEmpty();
    }

    private Optional<String> whyNot(int calls, long tokens) {
        if (cancellation.isCancelled()) {
            return Optional.of("the question was cancelled or ran out of wall time");
        }
        if (!budget.stepFits(calls)) {
            return Optional.of("the next step (" + calls + (calls == 1 ? " call" : " calls")
                    + ") would not finish before the answer's reserve: " + budget.whyStepDoesNotFit(calls));
        }
        if (budget.tokens() + tokens > budget.maxTokens()) {
            return Optional.of("the next step's " + tokens + " tokens would pass the token budget (" + budget.tokens()
                    + " of " + budget.maxTokens() + " spent)");
        }
        return Optional.empty();
    }
}
