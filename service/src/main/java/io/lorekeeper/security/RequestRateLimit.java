package io.lorekeeper.security;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpStatus;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;

/**
 * Requests per minute of each tenant on this replica (a token bucket refilled over the minute):
 * past it, 429 with {@code Retry-After} and when the next request fits. Each replica counts its
 * own requests, so the tenant's effective limit grows with the replicas behind the load balancer.
 */
class RequestRateLimit extends OncePerRequestFilter {

    private record BucketKey(UUID tenantId, long perMinute) {}

    /** A changed limit makes a new key, so a new bucket; idle tenants' buckets are dropped. */
    private final Cache<BucketKey, Bucket> buckets =
            Caffeine.newBuilder().expireAfterAccess(Duration.ofMinutes(10)).build();

    private final FilterProblems problems;

    RequestRateLimit(FilterProblems problems) {
        this.problems = problems;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        var authentication = SecurityContextHolder.getContext().getAuthentication();
        if (authentication != null && authentication.getPrincipal() instanceof Caller caller && caller.rateLimited()) {
            long limit = caller.quotas().requestsPerMinute();
            Bucket bucket = buckets.get(
                    new BucketKey(caller.tenantId(), limit),
                    k -> Bucket.builder()
                            .addLimit(Bandwidth.builder()
                                    .capacity(limit)
                                    .refillGreedy(limit, Duration.ofMinutes(1))
                                    .build())
                            .build());
            ConsumptionProbe probe = bucket.tryConsumeAndReturnRemaining(1);
            if (!probe.isConsumed()) {
                Duration wait = Duration.ofNanos(probe.getNanosToWaitForRefill());
                long seconds = Math.max(1, (wait.toMillis() + 999) / 1000);
                response.setHeader("Retry-After", Long.toString(seconds));
                problems.write(
                        response,
                        HttpStatus.TOO_MANY_REQUESTS,
                        "quota-exceeded",
                        "Too many requests",
                        "this tenant may send " + limit + " requests per minute; retry in " + seconds + " s",
                        Map.of(
                                "quota",
                                "requests-per-minute",
                                "limit",
                                limit,
                                "resetsAt",
                                Instant.now().plus(wait).toString()));
                return;
            }
        }
        chain.doFilter(request, response);
    }
}
