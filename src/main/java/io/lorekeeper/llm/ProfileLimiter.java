package io.lorekeeper.llm;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

import org.springframework.stereotype.Component;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;

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

    /** Blocks until the call may go; the returned handle must be closed when the call ends. */
    AutoCloseable acquire(ModelProfile profile, long estimatedTokens) throws InterruptedException {
        if (profile.tokensPerMinute() > 0) {
            Bucket bucket = tokenBuckets.computeIfAbsent(profile.name(), n -> Bucket.builder()
                    .addLimit(Bandwidth.builder().capacity(profile.tokensPerMinute())
                            .refillGreedy(profile.tokensPerMinute(), Duration.ofMinutes(1)).build())
                    .build());
            bucket.asBlocking().consume(Math.min(Math.max(1, estimatedTokens), profile.tokensPerMinute()));
        }
        Semaphore permits = concurrency.computeIfAbsent(profile.name(), n -> new Semaphore(Math.max(1, profile.maxConcurrency()), true));
        permits.acquire();
        return permits::release;
    }
}
