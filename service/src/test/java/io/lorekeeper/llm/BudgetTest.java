package io.lorekeeper.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/** The part of a question's budget kept for its answer. */
class BudgetTest {

    @Test
    void researchCallsLeaveTheLastCallForTheAnswer() {
        Budget budget = new Budget(3, 1_000_000, Duration.ofMinutes(10));

        budget.beginCall();
        budget.beginCall();
        assertThatThrownBy(budget::beginCall)
                .isInstanceOf(BudgetExhaustedException.class)
                .hasMessageContaining("kept for the answer");
        budget.beginCall(true);
        assertThatThrownBy(() -> budget.beginCall(true))
                .isInstanceOf(BudgetExhaustedException.class)
                .hasMessageContaining("calls (3)");
        assertThat(budget.calls()).isEqualTo(3);
    }

    @Test
    void aBudgetOfOneCallGivesItToWhicheverCallComesFirst() {
        Budget budget = new Budget(1, 1_000_000, Duration.ofMinutes(10));

        budget.beginCall();
        assertThatThrownBy(() -> budget.beginCall(true)).isInstanceOf(BudgetExhaustedException.class);
    }

    @Test
    void researchStopsInTheLastStretchOfTheWallTimeWhileTheAnswerMayStillStart() {
        // 100 s of wall time: the last twentieth (5 s), or twice the slowest call (8 s), is the answer's
        java.util.concurrent.atomic.AtomicLong now = new java.util.concurrent.atomic.AtomicLong();
        Budget budget = new Budget(100, 1_000_000, Duration.ofSeconds(100), now::get);
        budget.tookMillis(4_000);

        assertThat(budget.stepFits(1)).isTrue();
        now.set(Duration.ofSeconds(85).toNanos()); // 15 s left
        assertThat(budget.stepFits(1))
                .as("4 s of call end 11 s before the end, outside the 8 s")
                .isTrue();
        budget.beginCall();
        now.set(Duration.ofSeconds(93).toNanos()); // 7 s left: inside the reserve

        assertThat(budget.stepFits(1)).isFalse();
        assertThat(budget.whyStepDoesNotFit(1)).contains("wall time").contains("kept for the answer");
        assertThatThrownBy(budget::beginCall)
                .isInstanceOf(BudgetExhaustedException.class)
                .hasMessageContaining("kept for the answer");
        budget.beginCall(true);
        now.set(Duration.ofSeconds(101).toNanos());
        assertThatThrownBy(() -> budget.beginCall(true))
                .isInstanceOf(BudgetExhaustedException.class)
                .hasMessage("budget exhausted: wall time");
    }

    @Test
    void theReserveNeverTakesMoreThanAQuarterOfTheWallTime() {
        Budget budget = new Budget(100, 1_000_000, Duration.ofSeconds(60));
        budget.tookMillis(120_000); // one very slow call: twice it is four times the whole budget

        assertThat(budget.stepFits(0))
                .as("45 s of the 60 are still research time")
                .isTrue();
    }

    @Test
    void aStepFitsOnlyWhenItsCallsAtTheSpeedSoFarEndBeforeTheReserve() {
        Budget budget = new Budget(100, 1_000_000, Duration.ofSeconds(100));
        budget.tookMillis(10_000);
        budget.tookMillis(30_000); // mean 20 s; reserve max(5 s, 60 s) capped at 25 s

        assertThat(budget.stepFits(3)).as("60 s of calls end before 75 s").isTrue();
        assertThat(budget.stepFits(4))
                .as("80 s of calls would run into the answer's 25 s")
                .isFalse();
        assertThat(budget.whyStepDoesNotFit(4)).contains("20000 ms a call");
    }

    @Test
    void stepsCountTheCallKeptForTheAnswer() {
        Budget budget = new Budget(4, 1_000_000, Duration.ofMinutes(10));
        budget.beginCall();

        assertThat(budget.stepFits(2)).isTrue();
        assertThat(budget.stepFits(3)).isFalse();
        assertThat(budget.whyStepDoesNotFit(3)).contains("calls (1 of 4 made, the last kept for the answer)");
    }
}
