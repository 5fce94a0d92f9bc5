package io.lorekeeper.llm;

import java.time.Duration;

import io.lorekeeper.platform.RetryLaterException;

/** The endpoint asked us to wait longer than is reasonable in-process; the job is re-queued for later. */
public class RateLimitedException extends RetryLaterException {

    public RateLimitedException(String profile, Duration retryAfter) {
        super("rate limited by the " + profile + " endpoint for " + retryAfter.toSeconds() + " s", retryAfter);
    }
}
