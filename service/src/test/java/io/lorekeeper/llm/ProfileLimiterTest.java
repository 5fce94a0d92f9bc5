package io.lorekeeper.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.github.bucket4j.BlockingStrategy;
import io.github.bucket4j.TimeMeter;
import io.lorekeeper.llm.LlmSettings.StructuredOutputMode;

/**
 * The client-side limits of each model profile: calls in flight (real threads, waited on by their
 * state) and tokens per minute (a fake clock that waiting advances, so a minute costs nothing).
 */
class ProfileLimiterTest {

    private static ModelProfile profile(String name, int maxConcurrency, int tokensPerMinute) {
        return new ModelProfile(
                name,
                "http://model.invalid/v1",
                null,
                "m",
                0.0,
                1024,
                32768,
                StructuredOutputMode.NATIVE,
                maxConcurrency,
                tokensPerMinute,
                Duration.ofSeconds(30),
                false);
    }

    /** A clock that only moves when a caller waits on it, recording every wait. */
    private static final class FakeTime implements TimeMeter, BlockingStrategy {
        private final AtomicLong nanos = new AtomicLong(Duration.ofHours(1).toNanos());
        final List<Duration> waits = Collections.synchronizedList(new ArrayList<>());

        @Override
        public long currentTimeNanos() {
            return nanos.get();
        }

        @Override
        public boolean isWallClockBased() {
            return false;
        }

        @Override
        public void park(long nanosToPark) {
            waits.add(Duration.ofNanos(nanosToPark));
            nanos.addAndGet(nanosToPark);
        }

        void pass(Duration time) {
            nanos.addAndGet(time.toNanos());
        }
    }

    private final FakeTime time = new FakeTime();
    private final ProfileLimiter limiter = new ProfileLimiter(time, time);

    private void call(ModelProfile profile, long tokens) throws Exception {
        limiter.acquire(profile, tokens).close();
    }

    // ---------------------------------------------------------------- tokens per minute

    @Test
    void aMinutesTokensGoAtOnceAndLaterCallsWaitForTheRefill() throws Exception {
        ModelProfile cheap = profile("cheap", 4, 600);

        call(cheap, 600);
        assertThat(time.waits)
                .as("a full bucket lets a minute's tokens through")
                .isEmpty();

        call(cheap, 300);
        call(cheap, 60);

        // 600 tokens a minute refill 10 a second: 300 tokens take 30 s, 60 more another 6 s
        assertThat(time.waits).containsExactly(Duration.ofSeconds(30), Duration.ofSeconds(6));
    }

    @Test
    void tokensRefillWhileNobodyCalls() throws Exception {
        ModelProfile cheap = profile("cheap", 4, 600);
        call(cheap, 600);

        time.pass(Duration.ofSeconds(45));
        call(cheap, 450);

        assertThat(time.waits).isEmpty();
        call(cheap, 1);
        assertThat(time.waits).containsExactly(Duration.ofMillis(100));
    }

    @Test
    void aPromptLargerThanAMinutesAllowanceWaitsForAFullBucketInsteadOfForever() throws Exception {
        ModelProfile small = profile("small", 4, 100);
        call(small, 100);

        call(small, 5_000);

        assertThat(time.waits).containsExactly(Duration.ofMinutes(1));
    }

    @Test
    void tokenBucketsArePerProfileAndZeroMeansUnlimited() throws Exception {
        ModelProfile cheap = profile("cheap", 4, 600);
        ModelProfile strong = profile("strong", 4, 600);
        ModelProfile unlimited = profile("unlimited", 4, 0);
        call(cheap, 600);

        call(strong, 600);
        call(unlimited, 10_000_000);
        call(unlimited, 10_000_000);

        assertThat(time.waits)
                .as("the cheap profile's spent minute does not hold the others back")
                .isEmpty();
    }

    // ---------------------------------------------------------------- calls in flight

    @Test
    void callsBeyondMaxConcurrencyWaitUntilOneEnds() throws Exception {
        ModelProfile two = profile("two", 2, 0);
        AutoCloseable first = limiter.acquire(two, 10);
        AutoCloseable second = limiter.acquire(two, 10);
        AtomicBoolean thirdStarted = new AtomicBoolean();

        Thread third = Thread.ofPlatform().start(() -> {
            try (AutoCloseable permit = limiter.acquire(two, 10)) {
                thirdStarted.set(true);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });

        await().atMost(Duration.ofSeconds(10)).until(() -> third.getState() == Thread.State.WAITING);
        assertThat(thirdStarted).as("two calls are in flight").isFalse();
        AutoCloseable otherProfile = limiter.acquire(profile("other", 2, 0), 10);
        otherProfile.close();

        first.close();

        await().atMost(Duration.ofSeconds(10)).untilTrue(thirdStarted);
        third.join(Duration.ofSeconds(10));
        second.close();
    }

    @Test
    void aMaxConcurrencyBelowOneStillLetsOneCallThrough() throws Exception {
        ModelProfile none = profile("none", 0, 0);
        AutoCloseable only = limiter.acquire(none, 10);
        AtomicBoolean secondStarted = new AtomicBoolean();

        Thread second = Thread.ofPlatform().start(() -> {
            try (AutoCloseable permit = limiter.acquire(none, 10)) {
                secondStarted.set(true);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });

        await().atMost(Duration.ofSeconds(10)).until(() -> second.getState() == Thread.State.WAITING);
        assertThat(secondStarted).isFalse();
        only.close();
        await().atMost(Duration.ofSeconds(10)).untilTrue(secondStarted);
        second.join(Duration.ofSeconds(10));
    }
}
