package io.lorekeeper.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

import io.lorekeeper.llm.Budget;

/**
 * The one gate the research loops ask before a step: it lets a step start while its calls fit before the
 * answer's reserve, and records each refusal in the trace with the step, its round and the reason.
 */
class BudgetGateTest {

    private final List<TraceEvent> trace = new ArrayList<>();
    private final AtomicBoolean cancelled = new AtomicBoolean();
    private final Budget budget = new Budget(5, 1_000, Duration.ofMinutes(10));
    private final BudgetGate gate = new BudgetGate(cancelled::get, budget, trace::add);

    @Test
    void aStepThatFitsStartsAndLeavesNoTrace() {
        assertThat(gate.mayStart("plan", null, 1)).isTrue();
        assertThat(gate.stop("reading", 1, 3, 999)).isEmpty();
        assertThat(trace).isEmpty();
    }

    @Test
    void aStepIntoTheAnswersReserveIsStoppedAndRecorded() {
        assertThat(gate.stop("cycle", 2, 5, 0))
                .hasValueSatisfying(reason -> assertThat(reason)
                        .startsWith("the next step (5 calls) would not finish before the answer's reserve: calls"));
        assertThat(trace).singleElement().isInstanceOfSatisfying(StepEvent.BudgetSpent.class, spent -> {
            assertThat(spent.step()).isEqualTo("cycle");
            assertThat(spent.round()).isEqualTo(2);
        });
    }

    @Test
    void tokensPastTheBudgetStopTheStep() {
        assertThat(gate.stop("reading", 3, 1, 1_001))
                .contains("the next step's 1001 tokens would pass the token budget (0 of 1000 spent)");
    }

    @Test
    void aCancelledQuestionStartsNoStep() {
        cancelled.set(true);
        assertThat(gate.mayStart("reflect", null, 1)).isFalse();
        assertThat(trace)
                .singleElement()
                .isEqualTo(new StepEvent.BudgetSpent(
                        "reflect", null, "the question was cancelled or ran out of wall time"));
    }
}
