package io.lorekeeper.llm;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.time.InstantSource;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.openai.errors.OpenAIInvalidDataException;
import com.openai.errors.OpenAIIoException;
import com.openai.errors.OpenAIRetryableException;
import com.openai.errors.OpenAIServiceException;

/**
 * Decides what to do when a call fails: retry 429, 408, 409 and 5xx replies and timeouts or broken
 * connections with exponential backoff and full jitter, waiting at least what {@code Retry-After}
 * asks; give up at once on other client errors (a bad key will not get better).
 */
final class RetryPolicy {

    private final LlmSettings.Retry settings;

    RetryPolicy(LlmSettings.Retry settings) {
        this.settings = settings;
    }

    /**
     * @param endpointDown the endpoint could not be reached or failed on its side (a connection
     *                     failure, a timeout, a 5xx), as opposed to answering with a refusal (4xx)
     */
    record Failure(boolean retryable, Optional<Duration> retryAfter, String reason, boolean endpointDown) {

        Failure(boolean retryable, Optional<Duration> retryAfter, String reason) {
            this(retryable, retryAfter, reason, false);
        }
    }

    static Failure classify(Throwable error) {
        return classify(error, InstantSource.system());
    }

    /** @param clock what "now" is when {@code Retry-After} is an HTTP date */
    static Failure classify(Throwable error, InstantSource clock) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof OpenAIServiceException service) {
                int status = service.statusCode();
                boolean retryable = status == 429 || status == 408 || status == 409 || status >= 500;
                return new Failure(
                        retryable,
                        retryAfter(service.headers().values("retry-after-ms"), true, clock)
                                .or(() -> retryAfter(service.headers().values("retry-after"), false, clock)),
                        "HTTP " + status + describe(service),
                        status >= 500);
            }
            if (t instanceof OpenAIInvalidDataException invalid && !readFailed(invalid)) {
                // 200 with a body that is not a chat completion (truncated JSON, an HTML page behind a wrong base URL):
                // the same request will get the same answer, so do not retry
                return new Failure(
                        false,
                        Optional.empty(),
                        "the endpoint's reply is not a valid chat completion ("
                                + firstLine(root(invalid).getMessage()) + ")");
            }
            if (t instanceof OpenAIIoException || t instanceof OpenAIRetryableException || t instanceof IOException) {
                // OkHttp's call timeout is an InterruptedIOException("timeout") caused by the socket it closed
                Throwable timeout = find(t, InterruptedIOException.class);
                Throwable shown = timeout != null ? timeout : root(t);
                return new Failure(
                        true,
                        Optional.empty(),
                        (timeout != null ? "timed out" : "connection failed") + " ("
                                + shown.getClass().getSimpleName()
                                + (shown.getMessage() == null ? "" : ": " + firstLine(shown.getMessage())) + ")",
                        true);
            }
        }
        return new Failure(false, Optional.empty(), error.getClass().getSimpleName() + ": " + error.getMessage());
    }

    /** How long to wait before attempt {@code attempt + 1} (attempt counts from 1). */
    Duration backoff(int attempt, Optional<Duration> retryAfter) {
        long cap = settings.maxBackoff().toMillis();
        long exponential = Math.min(cap, settings.initialBackoff().toMillis() << Math.min(20, attempt - 1));
        long jittered = ThreadLocalRandom.current().nextLong(exponential / 2, exponential + 1);
        return retryAfter.filter(r -> r.toMillis() > jittered).orElse(Duration.ofMillis(jittered));
    }

    int maxAttempts() {
        return settings.maxAttempts();
    }

    Duration maxWait() {
        return settings.maxWait();
    }

    private static Optional<Duration> retryAfter(List<String> values, boolean millis, InstantSource clock) {
        if (values.isEmpty()) {
            return Optional.empty();
        }
        String value = values.getFirst().strip();
        try {
            double amount = Double.parseDouble(value);
            return Optional.of(millis ? Duration.ofMillis((long) amount) : Duration.ofMillis((long) (amount * 1000)));
        } catch (NumberFormatException notANumber) {
            try {
                Duration until = Duration.between(
                        clock.instant(),
                        ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME)
                                .toInstant());
                return Optional.of(until.isNegative() ? Duration.ZERO : until);
            } catch (RuntimeException notADate) {
                return Optional.empty();
            }
        }
    }

    private static String describe(OpenAIServiceException e) {
        // the SDK's messages start with the status ("429: Rate limit reached ..."), which the reason already names
        String message = e.getMessage() == null ? "" : e.getMessage().replaceFirst("^" + e.statusCode() + ": ", "");
        return message.isBlank() ? "" : ": " + (message.length() > 300 ? message.substring(0, 300) + "…" : message);
    }

    /** The body could not be read at all (connection lost or timed out mid-body), as opposed to read but not understood. */
    private static boolean readFailed(OpenAIInvalidDataException invalid) {
        for (Throwable t = invalid.getCause(); t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof JsonProcessingException) {
                return false;
            }
            if (t instanceof IOException) {
                return true;
            }
        }
        return false;
    }

    private static Throwable find(Throwable error, Class<? extends Throwable> type) {
        int depth = 0;
        for (Throwable t = error; t != null && depth < 20; t = t.getCause() == t ? null : t.getCause(), depth++) {
            if (type.isInstance(t)) {
                return t;
            }
        }
        return null;
    }

    private static Throwable root(Throwable t) {
        Throwable root = t;
        for (int depth = 0; root.getCause() != null && root.getCause() != root && depth < 20; depth++) {
            root = root.getCause();
        }
        return root;
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        String line = nl < 0 ? s : s.substring(0, nl);
        return line.length() > 200 ? line.substring(0, 200) + "…" : line;
    }
}
