package io.lorekeeper.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

/**
 * The budget's limits at their exact edges, with a clock the test moves: a limit is reached at its
 * value (tokens) or passed beyond it (calls, time), and the answer's reserve starts where it says.
 */
class BudgetBoundariesTest {

    private static final long SECOND = 1_000_000_000L;

    private final AtomicLong now = new AtomicLong(1_000 * SECOND);
    /** 100 s of wall time from now: the reserve is 5 s until a call is timed. */
    private final Budget budget = new Budget(5, 1_000, Duration.ofSeconds(100), now::get);

    @Test
    void theAnswerMayStartAtTheDeadlineButNotAfterIt() {
        now.addAndGet(100 * SECOND);
        assertThatCode(() -> budget.beginCall(true)).doesNotThrowAnyException();
        now.incrementAndGet();
        assertThatThrownBy(() -> budget.beginCall(true)).hasMessage("budget exhausted: wall time");
        assertThat(budget.remaining()).isEqualTo(Duration.ZERO);
    }

    @Test
    void researchMayStartWhereTheReserveBeginsButNotInsideIt() {
        now.addAndGet(95 * SECOND);
        assertThat(budget.remaining()).isEqualTo(Duration.ofSeconds(5));
        assertThatCode(budget::beginCall).doesNotThrowAnyException();
        now.incrementAndGet();
        assertThatThrownBy(budget::beginCall)
                .isInstanceOf(BudgetExhaustedException.class)
                .hasMessageContaining("wall time (the last 5 s are kept for the answer)");
    }

    @Test
    void tokensAreSpentWhenTheyReachTheLimit() {
        budget.spend(600, 399);
        assertThat(budget.tokens()).isEqualTo(999);
        assertThatCode(budget::beginCall).doesNotThrowAnyException();
        assertThat(budget.stepFits(1)).isTrue();
        budget.spend(1, 0);
        assertThatThrownBy(budget::beginCall).hasMessageContaining("tokens (1000 of 1000)");
        assertThatThrownBy(() -> budget.beginCall(true)).hasMessageContaining("tokens (1000 of 1000)");
        assertThat(budget.stepFits(1)).isFalse();
        assertThat(budget.whyStepDoesNotFit(1)).isEqualTo("tokens (1000 of 1000)");
    }

    @Test
    void aStepFitsUpToTheLastResearchCallAndUpToTheReserve() {
        budget.beginCall();
        assertThat(budget.stepFits(3))
                .as("calls 2 to 4; the 5th is the answer's")
                .isTrue();
        assertThat(budget.stepFits(4)).isFalse();
        assertThat(budget.whyStepDoesNotFit(4)).isEqualTo("calls (1 of 5 made, the last kept for the answer)");
        assertThat(budget.whyStepDoesNotFit(3))
                .as("a step that fits its calls is refused for its time, if at all")
                .startsWith("wall time");

        budget.tookMillis(1_000);
        budget.tookMillis(3_000); // mean 2 s, reserve max(5 s, 6 s) = 6 s
        now.addAndGet(90 * SECOND); // 10 s left: 4 s of research time
        assertThat(budget.stepFits(2))
                .as("two calls of 2 s end exactly where the reserve begins")
                .isTrue();
        now.incrementAndGet();
        assertThat(budget.stepFits(2)).isFalse();
        assertThat(budget.whyStepDoesNotFit(2))
                .isEqualTo("wall time (9 s left, 6 s kept for the answer, about 2000 ms a call)");
    }

    @Test
    void theLimitsAreWhatWasGiven() {
        assertThat(budget.maxCalls()).isEqualTo(5);
        assertThat(budget.maxTokens()).isEqualTo(1_000);
        assertThat(budget.maxWallTime()).isEqualTo(Duration.ofSeconds(100));
        Budget unlimited = Budget.unlimited();
        assertThat(unlimited.maxCalls()).isEqualTo(Integer.MAX_VALUE);
        assertThat(unlimited.maxTokens()).isEqualTo(Long.MAX_VALUE);
        assertThat(unlimited.maxWallTime()).isEqualTo(Duration.ofDays(365));
        assertThat(unlimited.stepFits(1_000)).isTrue();
    }
}
