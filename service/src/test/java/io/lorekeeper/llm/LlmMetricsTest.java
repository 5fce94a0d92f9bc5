package io.lorekeeper.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotBlank;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.lorekeeper.support.Api;
import io.lorekeeper.support.Prometheus;

/**
 * The gateway's metrics over the real client stack ({@link FakeOpenAi}): each outcome of a call counted by
 * profile and role, tokens and the estimated cost from the configured prices (2 and 8 a million), retried
 * attempts, replies cut or unusable, the endpoint's reachability, and Spring AI's own
 * {@code gen_ai_client_*} metrics beside them.
 */
@FakeOpenAiTest
public class LlmMetricsTest {

    record Verdict(@NotBlank String answer, @Max(100) int confidence) {}

    /**
     * Spring AI's metrics the chart's dashboard reads: only the real client stack produces them, so this test
     * checks them for MonitoringChartTest, whose scripted model does not.
     */
    public static final java.util.Set<String> SPRING_AI_METRICS = java.util.Set.of(
            "gen_ai_client_operation_seconds_bucket",
            "gen_ai_client_operation_seconds_count",
            "gen_ai_client_token_usage_total");

    @Autowired
    LlmGateway gateway;

    @Autowired
    Api api;

    @Autowired
    JdbcClient jdbc;

    private final FakeOpenAi fake = FakeOpenAi.get();

    private LlmSession session() {
        return gateway.open(CallScope.question(UUID.randomUUID(), UUID.randomUUID()), Budget.unlimited());
    }

    private static Map<String, Object> vars() {
        return Map.of("word", "pong", "nonce", UUID.randomUUID().toString());
    }

    private static Map<String, Object> verdict() {
        return Map.of(
                "question",
                "Who sent Pip the money?",
                "passage",
                "Magwitch.",
                "nonce",
                UUID.randomUUID().toString());
    }

    @Test
    void aCallIsCountedWithItsTokensAndCostAndAnAttemptRetriedAsARetry() {
        fake.sequence(FakeOpenAi.error(503, "overloaded", "server_error"), FakeOpenAi.completion("pong", 1000, 250));
        Prometheus before = Prometheus.scrape(api);

        session().text(Role.ANSWERER, "test/echo", vars());

        Prometheus after = Prometheus.scrape(api);
        String[] answerer = {"profile", "default", "role", "answerer"};
        assertThat(after.since(before, "lorekeeper_llm_call_seconds_count", with(answerer, "outcome", "ok")))
                .isEqualTo(1);
        assertThat(after.since(before, "lorekeeper_llm_retries_total", answerer))
                .isEqualTo(1);
        assertThat(after.since(before, "lorekeeper_llm_tokens_total", with(answerer, "type", "prompt")))
                .isEqualTo(1000);
        assertThat(after.since(before, "lorekeeper_llm_tokens_total", with(answerer, "type", "completion")))
                .isEqualTo(250);
        assertThat(after.since(before, "lorekeeper_llm_cost_total", answerer))
                .as("1,000 prompt tokens at 2 and 250 completion tokens at 8 a million")
                .isCloseTo(0.004, within(1e-9));
        // Spring AI's observation of each HTTP attempt, by model
        assertThat(after.since(
                        before,
                        "gen_ai_client_token_usage_total",
                        "gen_ai_request_model",
                        FakeOpenAi.MODEL,
                        "gen_ai_token_type",
                        "input"))
                .isEqualTo(1000);
        for (String metric : SPRING_AI_METRICS) {
            assertThat(after.find(metric, "gen_ai_request_model", FakeOpenAi.MODEL))
                    .as(metric)
                    .isNotEmpty();
        }
    }

    @Test
    void cutAndUnusableRepliesAreCountedApart() {
        Prometheus before = Prometheus.scrape(api);
        fake.always(FakeOpenAi.truncated("{\"answer\": \"Magw"));
        assertThatThrownBy(() -> session().text(Role.ANSWERER, "test/echo", vars()))
                .isInstanceOf(TruncatedReplyException.class);
        fake.reply("{\"answer\": \"Magwitch\", \"confidence\": 250}");
        assertThatThrownBy(() -> session().structured(Role.ANSWERER, "test/verdict", verdict(), Verdict.class))
                .isInstanceOf(UnusableReplyException.class);

        Prometheus after = Prometheus.scrape(api);
        assertThat(after.since(before, "lorekeeper_llm_call_seconds_count", "role", "answerer", "outcome", "truncated"))
                .as("the cut reply, and the one call that asks again with twice the limit")
                .isEqualTo(2);
        assertThat(after.since(before, "lorekeeper_llm_unusable_replies_total", "role", "answerer"))
                .isEqualTo(1);
        assertThat(after.since(before, "lorekeeper_llm_call_seconds_count", "role", "answerer", "outcome", "ok"))
                .as("the invalid reply and its repair were calls that answered")
                .isEqualTo(2);
    }

    @Test
    void theEndpointOfEachProfileIsUpOrDown() throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        Prometheus scrape;
        do {
            scrape = Prometheus.scrape(api);
            if (scrape.sum("lorekeeper_llm_endpoint_up", "profile", "dead") == 0
                    && scrape.sum("lorekeeper_llm_endpoint_up", "profile", "default") == 1) {
                break;
            }
            Thread.sleep(200);
        } while (System.nanoTime() < deadline);
        assertThat(scrape.sum("lorekeeper_llm_endpoint_up", "profile", "default"))
                .isEqualTo(1);
        assertThat(scrape.find("lorekeeper_llm_endpoint_up", "profile", "dead"))
                .as("the profile whose endpoint nothing listens on")
                .singleElement()
                .extracting(Prometheus.Sample::value)
                .isEqualTo(0.0);
    }

    private static String[] with(String[] labels, String... more) {
        String[] all = java.util.Arrays.copyOf(labels, labels.length + more.length);
        System.arraycopy(more, 0, all, labels.length, more.length);
        return all;
    }
}
