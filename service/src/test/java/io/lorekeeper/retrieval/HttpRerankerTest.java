package io.lorekeeper.retrieval;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.stubbing.Scenario;

/** The two wire forms of reranking servers, against a stand-in speaking each. */
class HttpRerankerTest {

    /** Started for the class, emptied of stubs and requests before each test. */
    @RegisterExtension
    static final WireMockExtension server =
            WireMockExtension.newInstance().options(options().dynamicPort()).build();

    @Test
    void textEmbeddingsInferenceScoresComeBackInPassageOrder() {
        server.stubFor(
                post(urlEqualTo("/rerank"))
                        .withRequestBody(
                                equalToJson("{\"query\": \"q\", \"texts\": [\"a\", \"b\", \"c\"]}", true, true))
                        .willReturn(
                                json(
                                        "[{\"index\": 2, \"score\": 0.9}, {\"index\": 0, \"score\": 0.5}, {\"index\": 1, \"score\": 0.1}]")));

        double[] scores = reranker("tei", "/rerank", 32).scores("q", List.of("a", "b", "c"));

        assertThat(scores).containsExactly(0.5, 0.1, 0.9);
    }

    @Test
    void theCohereFormNamesItsModelSendsTheKeyAndReadsRelevanceScores() {
        server.stubFor(
                post(urlEqualTo("/v1/rerank"))
                        .withHeader("Authorization", equalTo("Bearer rk-secret"))
                        .withRequestBody(
                                equalToJson(
                                        "{\"model\": \"rerank-v3\", \"query\": \"q\", \"documents\": [\"a\", \"b\"], \"top_n\": 2}"))
                        .willReturn(
                                json(
                                        "{\"results\": [{\"index\": 1, \"relevance_score\": 0.8}, {\"index\": 0, \"relevance_score\": 0.2}]}")));
        RerankSettings settings = settings("cohere", "/v1/rerank", 32, "rerank-v3", "rk-secret");

        assertThat(new HttpReranker(settings).scores("q", List.of("a", "b"))).containsExactly(0.2, 0.8);
    }

    @Test
    void passagesGoInBatchesAndEachBatchKeepsItsPlace() {
        server.stubFor(post(urlEqualTo("/rerank"))
                .willReturn(json("[{\"index\": 0, \"score\": 1.0}, {\"index\": 1, \"score\": 2.0}]")));
        List<String> passages = IntStream.range(0, 4).mapToObj(i -> "p" + i).toList();

        double[] scores = reranker("tei", "/rerank", 2).scores("q", passages);

        assertThat(scores).containsExactly(1.0, 2.0, 1.0, 2.0);
        server.verify(2, postRequestedFor(urlEqualTo("/rerank")));
    }

    @Test
    void anOverloadedServerIsTriedAgainAndARefusalIsNot() {
        server.stubFor(post(urlEqualTo("/rerank"))
                .inScenario("busy")
                .whenScenarioStateIs(Scenario.STARTED)
                .willReturn(aResponse().withStatus(503))
                .willSetStateTo("ready"));
        server.stubFor(post(urlEqualTo("/rerank"))
                .inScenario("busy")
                .whenScenarioStateIs("ready")
                .willReturn(json("[{\"index\": 0, \"score\": 0.3}]")));

        assertThat(reranker("tei", "/rerank", 32).scores("q", List.of("a"))).containsExactly(0.3);

        server.stubFor(post(urlEqualTo("/bad")).willReturn(aResponse().withStatus(400)));
        assertThatThrownBy(() -> reranker("tei", "/bad", 32).scores("q", List.of("a")))
                .hasMessageContaining("HTTP 400");
        server.verify(1, postRequestedFor(urlEqualTo("/bad")));
    }

    @Test
    void aPassageTheReplyLeavesOutIsMarkedAndAReplyWithoutScoresFails() {
        server.stubFor(post(urlEqualTo("/rerank"))
                .willReturn(json("[{\"index\": 1, \"score\": 0.7}, {\"index\": 9, \"score\": 5}]")));
        double[] scores = reranker("tei", "/rerank", 32).scores("q", List.of("a", "b"));
        assertThat(scores[1]).isEqualTo(0.7);
        assertThat(scores[0]).isEqualTo(Double.NEGATIVE_INFINITY);

        server.stubFor(post(urlEqualTo("/empty")).willReturn(json("{\"error\": \"nope\"}")));
        assertThatThrownBy(() -> reranker("tei", "/empty", 32).scores("q", List.of("a")))
                .hasMessageContaining("no scores");
    }

    private static HttpReranker reranker(String format, String path, int batch) {
        return new HttpReranker(settings(format, path, batch, "", ""));
    }

    static RerankSettings settings(String format, String path, int batch, String model, String key) {
        return new RerankSettings(
                server.baseUrl() + path,
                "",
                512,
                format,
                model,
                key,
                30,
                batch,
                2000,
                Duration.ofSeconds(5),
                3,
                2,
                false,
                20);
    }

    private static com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder json(String body) {
        return aResponse().withHeader("Content-Type", "application/json").withBody(body);
    }
}
