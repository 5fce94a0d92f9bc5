package io.lorekeeper.llm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.core.JsonParseException;
import com.openai.core.http.Headers;
import com.openai.errors.BadRequestException;
import com.openai.errors.InternalServerException;
import com.openai.errors.OpenAIInvalidDataException;
import com.openai.errors.OpenAIIoException;
import com.openai.errors.RateLimitException;
import com.openai.errors.UnauthorizedException;
import com.openai.models.ErrorObject;

/** How failures are classified and how long the gateway waits before the next attempt. */
class RetryPolicyTest {

    private static ErrorObject error(String message) {
        return ErrorObject.builder()
                .message(message)
                .type("requests")
                .code("rate_limit_exceeded")
                .param(Optional.empty())
                .build();
    }

    private static RateLimitException rateLimited(String header, String value) {
        return RateLimitException.builder()
                .headers(Headers.builder().put(header, value).build())
                .error(error("Rate limit reached"))
                .build();
    }

    @Test
    void retryAfterInSecondsIsRead() {
        RetryPolicy.Failure failure = RetryPolicy.classify(rateLimited("Retry-After", "7"));

        assertThat(failure.retryable()).isTrue();
        assertThat(failure.retryAfter()).contains(Duration.ofSeconds(7));
        assertThat(failure.reason()).isEqualTo("HTTP 429: Rate limit reached");
    }

    @Test
    void fractionalSecondsAndHeaderNamesInAnyCase() {
        assertThat(RetryPolicy.classify(rateLimited("retry-after", "1.5")).retryAfter())
                .contains(Duration.ofMillis(1500));
    }

    @Test
    void retryAfterMsWinsOverRetryAfter() {
        RateLimitException e = RateLimitException.builder()
                .headers(Headers.builder()
                        .put("retry-after-ms", "250")
                        .put("Retry-After", "9")
                        .build())
                .error(error("slow down"))
                .build();

        assertThat(RetryPolicy.classify(e).retryAfter()).contains(Duration.ofMillis(250));
    }

    /** "Now" for the HTTP-date cases: a fixed instant, so the expected wait is exact however slow the machine. */
    private static final Instant NOW = Instant.parse("2026-11-23T10:15:30.250Z");

    @Test
    void retryAfterAsAnHttpDate() {
        // HTTP dates have whole seconds: 30.75 s after NOW
        String date = "Mon, 23 Nov 2026 10:16:01 GMT";

        Duration wait = RetryPolicy.classify(rateLimited("Retry-After", date), () -> NOW)
                .retryAfter()
                .orElseThrow();

        assertThat(wait).isEqualTo(Duration.ofMillis(30_750));
        assertThat(ZonedDateTime.ofInstant(NOW.plus(wait), ZoneOffset.UTC).format(DateTimeFormatter.RFC_1123_DATE_TIME))
                .isEqualTo(date);
    }

    @Test
    void aDateInThePastMeansNoWaitAndGarbageMeansNoHint() {
        String past = "Mon, 23 Nov 2026 10:10:30 GMT";

        assertThat(RetryPolicy.classify(rateLimited("Retry-After", past), () -> NOW)
                        .retryAfter())
                .contains(Duration.ZERO);
        assertThat(RetryPolicy.classify(rateLimited("Retry-After", "soon"), () -> NOW)
                        .retryAfter())
                .isEmpty();
    }

    @Test
    void serverErrorsAreRetryableClientErrorsAreNot() {
        InternalServerException overloaded = InternalServerException.builder()
                .statusCode(503)
                .headers(Headers.builder().build())
                .error(error("overloaded"))
                .build();
        UnauthorizedException badKey = UnauthorizedException.builder()
                .headers(Headers.builder().build())
                .error(error("Incorrect API key provided"))
                .build();
        BadRequestException badRequest = BadRequestException.builder()
                .headers(Headers.builder().build())
                .error(error("Invalid 'messages'"))
                .build();

        assertThat(RetryPolicy.classify(overloaded).retryable()).isTrue();
        assertThat(RetryPolicy.classify(overloaded).reason()).isEqualTo("HTTP 503: overloaded");
        assertThat(RetryPolicy.classify(badKey).retryable()).isFalse();
        assertThat(RetryPolicy.classify(badKey).reason()).isEqualTo("HTTP 401: Incorrect API key provided");
        assertThat(RetryPolicy.classify(badRequest).retryable()).isFalse();
    }

    @Test
    void aServiceErrorShowsItsMessageCutAtThreeHundredCharactersAndNothingWhenItHasNone() {
        java.util.function.Function<String, String> reason =
                message -> RetryPolicy.classify(InternalServerException.builder()
                                .statusCode(502)
                                .headers(Headers.builder().build())
                                .error(error(message))
                                .build())
                        .reason();
        String exact = "y".repeat(300);

        assertThat(reason.apply(exact)).isEqualTo("HTTP 502: " + exact);
        assertThat(reason.apply(exact + "z")).isEqualTo("HTTP 502: " + exact + "…");
        assertThat(reason.apply("  ")).isEqualTo("HTTP 502");
        assertThat(RetryPolicy.classify(InternalServerException.builder()
                                .statusCode(500)
                                .headers(Headers.builder().build())
                                .build())
                        .reason())
                .as("the SDK's \"500: Unknown\" without its status")
                .isEqualTo("HTTP 500: Unknown");
    }

    @Test
    void brokenConnectionsAndTimeoutsAreRetryableEvenWhenWrapped() {
        RetryPolicy.Failure refused = RetryPolicy.classify(
                new OpenAIIoException("Request failed", new ConnectException("Failed to connect to /127.0.0.1:9")));
        InterruptedIOException timeout = new InterruptedIOException("timeout");
        timeout.initCause(new SocketException("Socket closed"));
        RetryPolicy.Failure timedOut = RetryPolicy.classify(new OpenAIIoException("Request failed", timeout));
        RetryPolicy.Failure wrapped = RetryPolicy.classify(new RuntimeException(new IOException("connection reset")));

        assertThat(refused.retryable()).isTrue();
        assertThat(refused.reason())
                .isEqualTo("connection failed (ConnectException: Failed to connect to /127.0.0.1:9)");
        assertThat(timedOut.retryable()).isTrue();
        assertThat(timedOut.reason()).isEqualTo("timed out (InterruptedIOException: timeout)");
        assertThat(wrapped.retryable()).isTrue();
        assertThat(wrapped.retryAfter()).isEmpty();
    }

    @Test
    void aBodyThatIsNotJsonIsNotRetriedButOneCutOffByTheNetworkIs() {
        RetryPolicy.Failure malformed = RetryPolicy.classify(new OpenAIInvalidDataException(
                "Error reading response", new JsonParseException(null, "Unexpected end-of-input")));
        RetryPolicy.Failure cutOff = RetryPolicy.classify(
                new OpenAIInvalidDataException("Error reading response", new SocketException("Connection reset")));

        assertThat(malformed.retryable()).isFalse();
        assertThat(malformed.reason()).startsWith("the endpoint's reply is not a valid chat completion");
        assertThat(cutOff.retryable()).isTrue();
        assertThat(cutOff.reason()).contains("Connection reset");
    }

    @Test
    void programmingErrorsAreNotRetryable() {
        RetryPolicy.Failure failure = RetryPolicy.classify(new IllegalStateException("bad options"));

        assertThat(failure.retryable()).isFalse();
        assertThat(failure.reason()).isEqualTo("IllegalStateException: bad options");
    }

    @Test
    void backoffGrowsExponentiallyWithJitterAndRespectsTheCap() {
        RetryPolicy policy = new RetryPolicy(
                new LlmSettings.Retry(8, Duration.ofMillis(100), Duration.ofMillis(1000), Duration.ofSeconds(60)));

        for (int i = 0; i < 200; i++) {
            assertThat(policy.backoff(1, Optional.empty())).isBetween(Duration.ofMillis(50), Duration.ofMillis(100));
            assertThat(policy.backoff(2, Optional.empty())).isBetween(Duration.ofMillis(100), Duration.ofMillis(200));
            assertThat(policy.backoff(3, Optional.empty())).isBetween(Duration.ofMillis(200), Duration.ofMillis(400));
            assertThat(policy.backoff(5, Optional.empty())).isBetween(Duration.ofMillis(500), Duration.ofMillis(1000));
            assertThat(policy.backoff(60, Optional.empty())).isBetween(Duration.ofMillis(500), Duration.ofMillis(1000));
        }
        // jitter: not always the same wait
        assertThat(java.util.stream.IntStream.range(0, 50)
                        .mapToObj(i -> policy.backoff(4, Optional.empty()))
                        .distinct()
                        .count())
                .isGreaterThan(1);
    }

    @Test
    void retryAfterIsAFloorNotACap() {
        RetryPolicy policy = new RetryPolicy(
                new LlmSettings.Retry(5, Duration.ofMillis(100), Duration.ofMillis(1000), Duration.ofSeconds(60)));

        // the server's wait is honoured even beyond max-backoff ...
        assertThat(policy.backoff(1, Optional.of(Duration.ofSeconds(5)))).isEqualTo(Duration.ofSeconds(5));
        // ... and a shorter hint than our own backoff does not make us retry sooner
        assertThat(policy.backoff(4, Optional.of(Duration.ofMillis(10))))
                .isGreaterThanOrEqualTo(Duration.ofMillis(400));
        assertThat(policy.maxWait()).isEqualTo(Duration.ofSeconds(60));
        assertThat(policy.maxAttempts()).isEqualTo(5);
    }
}
