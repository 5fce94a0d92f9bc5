package io.lorekeeper.llm;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

import org.springframework.stereotype.Component;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.BlockingStrategy;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.TimeMeter;

/**
 * Client-side limits per profile, so that many questions running at once stay inside what the
 * endpoint allows: at most {@code maxConcurrency} calls in flight, and (when set) at most
 * {@code tokensPerMinute} estimated prompt tokens per minute. Per replica: with N replicas set
 * each profile's limits to 1/N of the provider's.
 */
@Component
class ProfileLimiter {

    private final Map<String, Semaphore> concurrency = new ConcurrentHashMap<>();
    private final Map<String, Bucket> tokenBuckets = new ConcurrentHashMap<>();
    private final TimeMeter clock;
    private final BlockingStrategy waiting;

    ProfileLimiter() {
        this(TimeMeter.SYSTEM_MILLISECONDS, BlockingStrategy.PARKING);
    }

    /** With the clock the token buckets refill by and the way a caller waits for them (tests pass a fake pair). */
    ProfileLimiter(TimeMeter clock, BlockingStrategy waiting) {
        this.clock = clock;
        this.waiting = waiting;
    }

    /** Blocks until the call may go; the returned handle must be closed when the call ends. */
    AutoCloseable acquire(ModelProfile profile, long estimatedTokens) throws InterruptedException {
        if (profile.tokensPerMinute() > 0) {
            Bucket bucket = tokenBuckets.computeIfAbsent(
                    profile.name(),
                    n -> Bucket.builder()
                            .withCustomTimePrecision(clock)
                            .addLimit(Bandwidth.builder()
                                    .capacity(profile.tokensPerMinute())
                                    .refillGreedy(profile.tokensPerMinute(), Duration.ofMinutes(1))
                                    .build())
                            .build());
            // A prompt estimated above a whole minute's allowance would never fit: it waits for a full bucket instead.
            bucket.asBlocking().consume(Math.min(Math.max(1, estimatedTokens), profile.tokensPerMinute()), waiting);
        }
        Semaphore permits = concurrency.computeIfAbsent(
                profile.name(), n -> new Semaphore(Math.max(1, profile.maxConcurrency()), true));
        permits.acquire();
        return permits::release;
    }
}
