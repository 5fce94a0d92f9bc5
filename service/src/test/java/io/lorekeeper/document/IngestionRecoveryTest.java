package io.lorekeeper.document;

import static io.lorekeeper.support.TestDocuments.aText;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.lorekeeper.memory.FaultInjectingEmbeddingModel;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.IntegrationTest;
import tools.jackson.databind.JsonNode;

/**
 * A stage that dies half-way fails the document with the reason, keeps what was stored, and a
 * retry resumes from the last completed batch instead of starting over.
 */
@IntegrationTest
class IngestionRecoveryTest {

    @Autowired
    Api api;

    @Autowired
    FaultInjectingEmbeddingModel embeddings;

    @Autowired
    JdbcClient jdbc;

    @AfterEach
    void heal() {
        embeddings.heal();
    }

    @Test
    void aFailedEmbedStageResumesFromItsLastBatch() {
        // ~200 chunks: the embed stage writes batches of 64, so two batches land before the failure.
        String text = IntStream.range(0, 200)
                .mapToObj(i -> "Chapter " + i + " tells how the " + i
                        + "th lantern of Varrow was lit by a keeper. ".repeat(12))
                .collect(Collectors.joining("\n\n"));
        embeddings.failAfter(2);

        UUID id = UUID.fromString(
                api.post("/v1/documents", aText(text).build()).json().get("id").asString());
        JsonNode failed = api.awaitDocument(id, "FAILED", Duration.ofMinutes(2));

        assertThat(failed.get("failureReason").asString()).contains("embed").contains("injected embedding failure");
        Map<String, JsonNode> stages = stages(failed);
        assertThat(stages.get("segment").get("status").asString()).isEqualTo("DONE");
        assertThat(stages.get("embed").get("status").asString()).isEqualTo("FAILED");
        int total = failed.get("chunkCount").asInt();
        int embeddedBefore = embedded(id);
        assertThat(embeddedBefore)
                .isEqualTo(128)
                .isEqualTo(stages.get("embed").get("done").asInt());
        assertThat(total).isGreaterThan(embeddedBefore);

        embeddings.heal();
        int textsBefore = embeddings.textsEmbedded();
        assertThat(api.post("/v1/documents/" + id + "/reindex", Map.of()).status())
                .isEqualTo(202);
        JsonNode ready = api.awaitDocument(id, "READY", Duration.ofMinutes(2));

        assertThat(embedded(id)).isEqualTo(total);
        assertThat(embeddings.textsEmbedded() - textsBefore)
                .as(
                        "only the missing chunks are embedded again (and, once READY, each sentence for the sentences memory)")
                .isEqualTo(total - embeddedBefore + sentences(jdbc, id));
        assertThat(ready.get("failureReason")).isNull();
        assertThat(stages(ready).get("embed").get("done").asInt()).isEqualTo(total);
    }

    @Test
    void reindexingNamedStagesRebuildsThemAndEveryLaterStage() {
        UUID id = api.ingest(aText("The bell of Dunmore rang eleven times at the wedding of Ailsa Grant.")
                .build());
        List<Long> chunkIdsBefore = chunkIds(id);

        assertThat(api.post("/v1/documents/" + id + "/reindex", Map.of("stages", List.of("segment")))
                        .status())
                .isEqualTo(202);
        api.awaitDocument(id, "READY", Duration.ofMinutes(1));

        assertThat(chunkIds(id)).doesNotContainAnyElementsOf(chunkIdsBefore);
        assertThat(embedded(id)).isEqualTo(chunkIds(id).size());
        assertThat(api.post("/v1/documents/" + id + "/reindex", Map.of("stages", List.of("colour")))
                        .json()
                        .get("field")
                        .asString())
                .isEqualTo("stages");
    }

    private int embedded(UUID id) {
        return jdbc.sql("SELECT count(*) FROM chunk WHERE document_id = ? AND embedding IS NOT NULL")
                .param(id)
                .query(Integer.class)
                .single();
    }

    private List<Long> chunkIds(UUID id) {
        return jdbc.sql("SELECT id FROM chunk WHERE document_id = ?")
                .param(id)
                .query(Long.class)
                .list();
    }

    private static Map<String, JsonNode> stages(JsonNode document) {
        Map<String, JsonNode> byName = new java.util.HashMap<>();
        document.get("stages").forEach(stage -> byName.put(stage.get("name").asString(), stage));
        return byName;
    }

    /** Sentences the sentences memory embedded for the document once it was READY. */
    static int sentences(JdbcClient jdbc, UUID id) {
        return jdbc.sql("SELECT count(*) FROM sentence_vector WHERE document_id = ?")
                .param(id)
                .query(Integer.class)
                .single();
    }
}
