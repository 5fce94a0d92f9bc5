package io.lorekeeper.platform;

import java.time.Duration;

/**
 * A job cannot make progress now but can later (a provider's rate-limit window longer than we
 * should wait in-process). Job runners catch it and re-queue the job instead of failing it.
 */
public class RetryLaterException extends RuntimeException {

    private final Duration after;

    public RetryLaterException(String message, Duration after) {
        super(message);
        this.after = after;
    }

    public Duration after() {
        return after;
    }
}
