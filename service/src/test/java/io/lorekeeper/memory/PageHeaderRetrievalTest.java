package io.lorekeeper.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.lorekeeper.llm.ScriptedChatModel;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.LlmIntegrationTest;
import io.lorekeeper.support.TestDocuments;
import tools.jackson.databind.JsonNode;

/**
 * GAM's page headers reach retrieval: once written, each chunk of the page is found by the words of
 * its header (BM25) and embedded with the header in front, while the text, spans and quotes it
 * returns stay its own; once reset, the header's words find nothing.
 */
@LlmIntegrationTest
class PageHeaderRetrievalTest {

    @Autowired
    Api api;

    @Autowired
    ScriptedChatModel model;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    Embeddings embeddings;

    @Autowired
    PageHeaderStage headers;

    @Test
    void aChunkIsFoundByItsPagesHeaderAndEmbeddedWithIt() {
        model.reset();
        model.on("gam/page-header")
                .reply(call -> call.user().contains("Page 1")
                        ? "{\"header\": \"Ines and Tomas at the Quillbrook regatta, July 2024.\"}"
                        : "{\"header\": \"Ines and Tomas, spring 2024.\"}");
        UUID chat = api.ingest(TestDocuments.aConversation()
                .titled("Sailing letters")
                .session(
                        "9:00 am on 2 March, 2024",
                        "Ines",
                        "The boat needs new sails before summer.",
                        "Tomas",
                        "I will ask my uncle.")
                .session(
                        "6:00 pm on 14 July, 2024",
                        "Ines",
                        "We came third, the wind dropped at the last buoy.",
                        "Tomas",
                        "Next year!")
                .build());
        api.awaitStage(chat, "page-headers", "DONE", Duration.ofMinutes(2));

        JsonNode hits = api.post(
                        "/v1/search",
                        Map.of("documentIds", List.of(chat), "query", "Quillbrook regatta", "mode", "keyword", "k", 10))
                .json()
                .get("hits");

        assertThat(hits).isNotEmpty();
        for (JsonNode hit : hits) {
            assertThat(hit.get("page").asInt())
                    .as("only page 1 has that header")
                    .isEqualTo(1);
            assertThat(hit.get("text").asString())
                    .as("the text stays the chunk's own")
                    .doesNotContain("Quillbrook");
        }
        List<Map<String, Object>> rows = jdbc.sql(
                        "SELECT text, context, embedding::text AS v FROM chunk WHERE document_id = ? ORDER BY ordinal")
                .param(chat)
                .query((rs, n) -> Map.<String, Object>of(
                        "text", rs.getString("text"), "context", rs.getString("context"), "v", rs.getString("v")))
                .list();
        assertThat(rows).allSatisfy(r -> assertThat((String) r.get("context")).startsWith("Ines and Tomas"));
        Map<String, Object> first = rows.getFirst();
        float[] stored = parse((String) first.get("v"));
        float[] withHeader = embeddings
                .passages(List.of(first.get("context") + "\n" + first.get("text")))
                .getFirst();
        float[] withoutHeader =
                embeddings.passages(List.of((String) first.get("text"))).getFirst();
        assertThat(cosine(stored, withHeader)).isGreaterThan(0.9999);
        assertThat(cosine(stored, withoutHeader)).isLessThan(0.9999);

        // a reset takes the headers out of the keyword index at once, not when the stage runs again
        headers.reset(chat);
        assertThat(api.post(
                                "/v1/search",
                                Map.of(
                                        "documentIds",
                                        List.of(chat),
                                        "query",
                                        "Quillbrook regatta",
                                        "mode",
                                        "keyword",
                                        "k",
                                        10))
                        .json()
                        .get("hits"))
                .isEmpty();
    }

    private static float[] parse(String vector) {
        String[] parts = vector.substring(1, vector.length() - 1).split(",");
        float[] out = new float[parts.length];
        for (int i = 0; i < parts.length; i++) {
            out[i] = Float.parseFloat(parts[i]);
        }
        return out;
    }

    private static double cosine(float[] a, float[] b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return dot / Math.sqrt(na * nb);
    }
}
