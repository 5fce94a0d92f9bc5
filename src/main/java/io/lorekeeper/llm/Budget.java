package io.lorekeeper.llm;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one question (or one ingestion stage) may spend on the model: calls, tokens and wall time.
 * Checked before every call; when spent, the call throws {@link BudgetExhaustedException} and the
 * strategy returns its best answer so far, marked as budget-limited.
 */
public final class Budget {

    private final int maxCalls;
    private final long maxTokens;
    private final long deadlineNanos;
    private final Duration maxWallTime;
    private final AtomicInteger calls = new AtomicInteger();
    private final AtomicLong tokens = new AtomicLong();

    public Budget(int maxCalls, long maxTokens, Duration maxWallTime) {
        this.maxCalls = maxCalls;
        this.maxTokens = maxTokens;
        this.deadlineNanos = System.nanoTime() + maxWallTime.toNanos();
        this.maxWallTime = maxWallTime;
    }

    public static Budget unlimited() {
        return new Budget(Integer.MAX_VALUE, Long.MAX_VALUE, Duration.ofDays(365));
    }

    /** Reserves one call, or throws when calls, tokens or time are spent. */
    void beginCall() {
        if (System.nanoTime() > deadlineNanos) {
            throw new BudgetExhaustedException("wall time");
        }
        if (tokens.get() >= maxTokens) {
            throw new BudgetExhaustedException("tokens (" + tokens.get() + " of " + maxTokens + ")");
        }
        if (calls.incrementAndGet() > maxCalls) {
            calls.decrementAndGet();
            throw new BudgetExhaustedException("calls (" + maxCalls + ")");
        }
    }

    void spend(long promptTokens, long completionTokens) {
        tokens.addAndGet(promptTokens + completionTokens);
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
     * Whether {@code moreCalls} further calls that bring about {@code moreTokens} tokens in all still
     * fit, so that a strategy can stop reading while it can still afford its answer call.
     */
    public boolean affords(int moreCalls, long moreTokens) {
        return calls.get() + (long) moreCalls <= maxCalls
                && tokens.get() + moreTokens <= maxTokens
                && System.nanoTime() < deadlineNanos;
    }

    public int calls() {
        return calls.get();
    }

    public long tokens() {
        return tokens.get();
    }

    /** Time left before the wall-time limit; never negative. */
    public Duration remaining() {
        return Duration.ofNanos(Math.max(0, deadlineNanos - System.nanoTime()));
    }
}
