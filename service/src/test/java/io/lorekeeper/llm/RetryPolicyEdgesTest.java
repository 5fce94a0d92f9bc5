package io.lorekeeper.llm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import com.openai.core.http.Headers;
import com.openai.errors.UnexpectedStatusCodeException;

/** Which statuses are retried and mark the endpoint down, and how deep a cause chain is read. */
class RetryPolicyEdgesTest {

    private static RetryPolicy.Failure status(int code) {
        return RetryPolicy.classify(UnexpectedStatusCodeException.builder()
                .statusCode(code)
                .headers(Headers.builder().build())
                .build());
    }

    @Test
    void serverErrorsFromFiveHundredAreRetriedAndMeanTheEndpointIsDown() {
        RetryPolicy.Failure fiveHundred = status(500);
        assertThat(fiveHundred.retryable()).isTrue();
        assertThat(fiveHundred.endpointDown()).isTrue();
        assertThat(fiveHundred.reason()).startsWith("HTTP 500");

        RetryPolicy.Failure below = status(499);
        assertThat(below.retryable()).isFalse();
        assertThat(below.endpointDown()).isFalse();

        for (int code : new int[] {408, 409}) {
            RetryPolicy.Failure conflict = status(code);
            assertThat(conflict.retryable()).as("HTTP %d", code).isTrue();
            assertThat(conflict.endpointDown()).as("HTTP %d", code).isFalse();
        }
        assertThat(status(410).retryable()).isFalse();
        assertThat(status(407).retryable()).isFalse();
    }

    @Test
    void aTimeoutAnywhereInTheCauseChainIsATimeoutAndOtherwiseTheRootIsShown() {
        RetryPolicy.Failure timedOut =
                RetryPolicy.classify(new IOException("call failed", new InterruptedIOException("timeout")));
        assertThat(timedOut.reason()).isEqualTo("timed out (InterruptedIOException: timeout)");
        assertThat(timedOut.retryable()).isTrue();
        assertThat(timedOut.endpointDown()).isTrue();

        RetryPolicy.Failure refused = RetryPolicy.classify(
                new IOException("call failed", new ConnectException("Connection refused\nat port 1")));
        assertThat(refused.reason()).isEqualTo("connection failed (ConnectException: Connection refused)");

        assertThat(RetryPolicy.classify(new IOException("\nthe rest")).reason())
                .as("only the first line, empty here")
                .isEqualTo("connection failed (IOException: )");

        RetryPolicy.Failure silent = RetryPolicy.classify(new IOException((String) null));
        assertThat(silent.reason()).isEqualTo("connection failed (IOException)");
    }

    @Test
    void longMessagesAreCutAtTwoHundredCharacters() {
        String exact = "x".repeat(200);
        assertThat(RetryPolicy.classify(new IOException(exact)).reason())
                .isEqualTo("connection failed (IOException: " + exact + ")");
        assertThat(RetryPolicy.classify(new IOException(exact + "y")).reason())
                .isEqualTo("connection failed (IOException: " + exact + "…)");
    }

    @Test
    void causesAreFollowedTwentyDeepAndNoDeeper() {
        // a timeout at depth 20 is past what is searched: the root shown is then that timeout, 20 causes down
        Throwable deepTimeout = new InterruptedIOException("timeout");
        for (int depth = 19; depth >= 0; depth--) {
            deepTimeout = new IOException("level " + depth, deepTimeout);
        }
        assertThat(RetryPolicy.classify(deepTimeout).reason())
                .isEqualTo("connection failed (InterruptedIOException: timeout)");

        Throwable deep = new ConnectException("bottom");
        for (int depth = 21; depth >= 0; depth--) {
            deep = new IOException("level " + depth, deep);
        }
        assertThat(RetryPolicy.classify(deep).reason()).isEqualTo("connection failed (IOException: level 20)");
    }

    @Test
    void anExceptionThatIsItsOwnCauseEndsTheSearch() {
        RuntimeException selfCaused = new RuntimeException("loop") {
            @Override
            public synchronized Throwable getCause() {
                return this;
            }
        };
        RetryPolicy.Failure failure = RetryPolicy.classify(selfCaused);
        assertThat(failure.retryable()).isFalse();
        assertThat(failure.reason()).endsWith(": loop");
    }

    @Test
    void aOneMillisecondBackoffIsZeroOrOneMillisecond() {
        RetryPolicy policy = new RetryPolicy(
                new LlmSettings.Retry(8, Duration.ofMillis(1), Duration.ofMillis(1000), Duration.ofSeconds(60)));
        for (int i = 0; i < 50; i++) {
            assertThat(policy.backoff(1, Optional.empty())).isBetween(Duration.ZERO, Duration.ofMillis(1));
        }
        assertThat(policy.backoff(1, Optional.of(Duration.ofSeconds(3))))
                .as("a longer Retry-After wins")
                .isEqualTo(Duration.ofSeconds(3));
        assertThat(policy.maxAttempts()).isEqualTo(8);
        assertThat(policy.maxWait()).isEqualTo(Duration.ofSeconds(60));
    }
}
