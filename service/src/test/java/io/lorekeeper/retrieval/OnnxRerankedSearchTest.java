package io.lorekeeper.retrieval;

import static io.lorekeeper.support.TestDocuments.aLighthouseLog;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.lorekeeper.support.Api;
import io.lorekeeper.support.IntegrationTest;
import io.lorekeeper.support.TinyOnnx;
import tools.jackson.databind.JsonNode;

/**
 * The search API with an in-process cross-encoder from a folder: a tiny ONNX model the test writes,
 * which scores a passage by how often it says "cat". The hits come back in the model's order, and the
 * response says what reranked them.
 */
@IntegrationTest
class OnnxRerankedSearchTest {

    private static final Path MODEL = folder();

    private static Path folder() {
        try {
            Path dir = Files.createTempDirectory("cross-encoder");
            dir.toFile().deleteOnExit();
            return TinyOnnx.folder(dir.resolve("tiny-cats"), TinyOnnx.crossEncoder(Map.of("cat", 1f, "kitten", 3f)));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @DynamicPropertySource
    static void rerankWithTheTinyModel(DynamicPropertyRegistry registry) {
        registry.add("lorekeeper.search.rerank.model-location", MODEL::toString);
    }

    @Autowired
    Api api;

    @Test
    void hitsComeBackInTheCrossEncodersOrder() throws Exception {
        String marker = UUID.randomUUID().toString().substring(0, 8);
        UUID doc = api.ingest(aLighthouseLog(
                        marker, 6, "A cat slept on the lighthouse stairs", "A kitten played by the lighthouse door")
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
                                3))
                .json();

        List<String> hits = new ArrayList<>();
        found.get("hits").forEach(h -> hits.add(h.get("text").asString()));
        assertThat(hits.get(0)).contains("kitten");
        assertThat(hits.get(1)).contains("A cat slept");
        assertThat(found.get("hits").get(0).get("score").asDouble()).isEqualTo(3.0);
        assertThat(found.get("hits").get(1).get("score").asDouble()).isEqualTo(1.0);
        assertThat(found.get("rerank").get("by").asString()).isEqualTo("onnx tiny-cats");
        assertThat(found.get("rerank").get("candidates").asInt())
                .as("every chunk of the document, fewer than the 30 candidates a search reranks")
                .isEqualTo(
                        api.get("/v1/documents/" + doc).json().get("chunkCount").asInt());
    }
}
