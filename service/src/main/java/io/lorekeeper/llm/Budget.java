package io.lorekeeper.llm;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one question (or one ingestion stage) may spend on the model: calls, tokens and wall time.
 * Checked before every call; when spent, the call throws {@link BudgetExhaustedException} and the
 * strategy returns its best answer so far, marked as budget-limited.
 *
 * <p>Part of the budget is kept for the answer: a research step may not take the last call, nor
 * start in the last stretch of the wall time (a twentieth of it, or twice the slowest call seen so
 * far, at most a quarter), so that a loop stopped by its budget can still afford the call that
 * writes its answer. Calls made {@link LlmSession#answering() for the answer} may use that reserve.
 */
public final class Budget {

    private final int maxCalls;
    private final long maxTokens;
    private final long deadlineNanos;
    private final Duration maxWallTime;
    private final AtomicInteger calls = new AtomicInteger();
    private final AtomicLong tokens = new AtomicLong();
    private final AtomicLong slowestCallMillis = new AtomicLong();
    private final AtomicLong callMillis = new AtomicLong();
    private final AtomicInteger timedCalls = new AtomicInteger();

    private final java.util.function.LongSupplier clock;

    public Budget(int maxCalls, long maxTokens, Duration maxWallTime) {
        this(maxCalls, maxTokens, maxWallTime, System::nanoTime);
    }

    /** @param clock {@link System#nanoTime()}, or a test's own */
    Budget(int maxCalls, long maxTokens, Duration maxWallTime, java.util.function.LongSupplier clock) {
        this.maxCalls = maxCalls;
        this.maxTokens = maxTokens;
        this.clock = clock;
        this.deadlineNanos = clock.getAsLong() + maxWallTime.toNanos();
        this.maxWallTime = maxWallTime;
    }

    public static Budget unlimited() {
        return new Budget(Integer.MAX_VALUE, Long.MAX_VALUE, Duration.ofDays(365));
    }

    /** Reserves one research call, or throws when calls, tokens or time are spent (the answer's reserve included). */
    void beginCall() {
        beginCall(false);
    }

    /**
     * Reserves one call, or throws when calls, tokens or time are spent. A call for the answer may use
     * the reserve kept for it; any other call may not.
     */
    void beginCall(boolean forAnswer) {
        long now = clock.getAsLong();
        if (now > deadlineNanos) {
            throw new BudgetExhaustedException("wall time");
        }
        if (!forAnswer && now > deadlineNanos - reserveNanos()) {
            throw new BudgetExhaustedException(
                    "wall time (the last " + reserveNanos() / 1_000_000_000 + " s are kept for the answer)");
        }
        if (tokens.get() >= maxTokens) {
            throw new BudgetExhaustedException("tokens (" + tokens.get() + " of " + maxTokens + ")");
        }
        int limit = forAnswer ? maxCalls : maxCalls - reservedCalls();
        if (calls.incrementAndGet() > limit) {
            calls.decrementAndGet();
            throw new BudgetExhaustedException(
                    forAnswer ? "calls (" + maxCalls + ")" : "calls (" + maxCalls + ", the last kept for the answer)");
        }
    }

    void spend(long promptTokens, long completionTokens) {
        tokens.addAndGet(promptTokens + completionTokens);
    }

    /** How long a call to the model took, so that the reserve and {@link #stepFits} follow the endpoint's real speed. */
    void tookMillis(long millis) {
        slowestCallMillis.accumulateAndGet(millis, Math::max);
        callMillis.addAndGet(millis);
        timedCalls.incrementAndGet();
    }

    public int maxCalls() {
        return maxCalls;
    }

    public long maxTokens() {
        return maxTokens;
    }

    public Duration maxWallTime() {
        return maxWallTime;
    }

    /**
     * Whether a step of {@code stepCalls} calls can start and finish, at the mean speed of the calls
     * so far, before the answer's reserve of calls and time: loops ask this before each step rather
     * than find out from a call refused halfway through it.
     */
    public boolean stepFits(int stepCalls) {
        long expectedNanos = stepCalls * meanCallMillis() * 1_000_000L;
        return calls.get() + (long) stepCalls <= (long) maxCalls - reservedCalls()
                && tokens.get() < maxTokens
                && clock.getAsLong() + expectedNanos <= deadlineNanos - reserveNanos();
    }

    /** Why {@link #stepFits} said no, for the trace. */
    public String whyStepDoesNotFit(int stepCalls) {
        if (calls.get() + (long) stepCalls > (long) maxCalls - reservedCalls()) {
            return "calls (" + calls.get() + " of " + maxCalls + " made, the last kept for the answer)";
        }
        if (tokens.get() >= maxTokens) {
            return "tokens (" + tokens.get() + " of " + maxTokens + ")";
        }
        return "wall time (" + remaining().toSeconds() + " s left, " + reserveNanos() / 1_000_000_000
                + " s kept for the answer, about " + meanCallMillis() + " ms a call)";
    }

    public int calls() {
        return calls.get();
    }

    public long tokens() {
        return tokens.get();
    }

    /** Time left before the wall-time limit; never negative. */
    public Duration remaining() {
        return Duration.ofNanos(Math.max(0, deadlineNanos - clock.getAsLong()));
    }

    /** The last call is the answer's, when there is more than one. */
    private int reservedCalls() {
        return maxCalls > 1 ? 1 : 0;
    }

    private long reserveNanos() {
        long wall = maxWallTime.toNanos();
        long twiceSlowest = 2 * slowestCallMillis.get() * 1_000_000L;
        return Math.min(wall / 4, Math.max(wall / 20, twiceSlowest));
    }

    private long meanCallMillis() {
        int n = timedCalls.get();
        return n == 0 ? 0 : callMillis.get() / n;
    }
}
