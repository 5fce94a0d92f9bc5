package io.lorekeeper.retrieval;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static io.lorekeeper.support.TestDocuments.aLighthouseLog;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.extension.ResponseDefinitionTransformerV2;
import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;

import io.lorekeeper.support.Api;
import io.lorekeeper.support.IntegrationTest;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The search API with a reranking endpoint configured: a stand-in Text Embeddings Inference server
 * that prefers passages about a cat. The hits come back in the order the stand-in's scores give the
 * candidates it was sent, whatever order the first stage had.
 */
@IntegrationTest
class RerankedSearchApiTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final WireMockServer reranker = started();

    private static WireMockServer started() {
        WireMockServer server = new WireMockServer(options().dynamicPort().extensions(new PrefersCats()));
        server.start();
        server.stubFor(post(urlEqualTo("/rerank")).willReturn(aResponse().withTransformers(PrefersCats.NAME)));
        return server;
    }

    @DynamicPropertySource
    static void rerankWithTheStandIn(DynamicPropertyRegistry registry) {
        registry.add("lorekeeper.search.rerank.url", () -> reranker.baseUrl() + "/rerank");
    }

    @AfterAll
    static void stop() {
        reranker.stop();
    }

    @Autowired
    Api api;

    @Test
    void hitsComeBackInTheOrderTheRerankerScoresThem() throws Exception {
        String marker = UUID.randomUUID().toString().substring(0, 8);
        UUID doc = api.ingest(aLighthouseLog(marker, 8, "A grey cat slept on the lighthouse stairs")
                .build());

        JsonNode found = api.post(
                        "/v1/search",
                        Map.of(
                                "documentIds",
                                List.of(doc),
                                "query",
                                "the keeper polished the lens",
                                "mode",
                                "hybrid",
                                "k",
                                5))
                .json();

        List<String> sent = new ArrayList<>();
        JSON.readTree(reranker.getAllServeEvents().getFirst().getRequest().getBodyAsString())
                .get("texts")
                .forEach(t -> sent.add(t.asString()));
        List<String> hits = new ArrayList<>();
        found.get("hits").forEach(h -> hits.add(h.get("text").asString()));
        assertThat(sent.getFirst())
                .as("the first stage did not rank the cat first")
                .doesNotContain("cat");
        assertThat(hits.getFirst()).contains("grey cat");
        assertThat(hits.subList(1, hits.size()))
                .as("the rest keep the first stage's order, as the stand-in scores them")
                .isEqualTo(sent.stream()
                        .filter(t -> !t.contains("cat"))
                        .limit(hits.size() - 1)
                        .toList());
        assertThat(found.get("hits").get(0).get("score").asDouble()).isEqualTo(100.0);
        assertThat(found.get("rerank").get("by").asString()).isEqualTo("tei " + reranker.baseUrl() + "/rerank");
        assertThat(found.get("rerank").get("candidates").asInt()).isEqualTo(sent.size());
        assertThat(found.get("rerank").has("promptTokens"))
                .as("no model tokens")
                .isFalse();
    }

    /** Scores 100 for a passage with "cat" in it, else minus its index: the first stage's order otherwise. */
    static final class PrefersCats implements ResponseDefinitionTransformerV2 {
        static final String NAME = "prefers-cats";

        @Override
        public ResponseDefinition transform(ServeEvent event) {
            JsonNode texts = JSON.readTree(event.getRequest().getBodyAsString()).get("texts");
            List<Map<String, Object>> scores = new ArrayList<>();
            for (int i = 0; i < texts.size(); i++) {
                scores.add(Map.of("index", i, "score", texts.get(i).asString().contains("cat") ? 100.0 : -i));
            }
            return new com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder()
                    .withHeader("Content-Type", "application/json")
                    .withBody(JSON.writeValueAsString(scores))
                    .build();
        }

        @Override
        public String getName() {
            return NAME;
        }

        @Override
        public boolean applyGlobally() {
            return false;
        }
    }
}
