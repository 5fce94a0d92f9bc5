package io.lorekeeper.document;

import static io.lorekeeper.support.TestDocuments.aText;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.lorekeeper.memory.FaultInjectingEmbeddingModel;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.IntegrationTest;
import tools.jackson.databind.JsonNode;

/**
 * A stage whose backend asks to come back much later (a rate-limited endpoint) neither fails the
 * document nor blocks a thread: the document goes back to QUEUED, the stage says what it waits for,
 * and the job is rescheduled for then. The wait is skipped by moving the job's due time.
 */
@IntegrationTest
class IngestionRequeueTest {

    @Autowired
    Api api;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    FaultInjectingEmbeddingModel embeddings;

    @AfterEach
    void heal() {
        embeddings.heal();
    }

    @Test
    void aStageAskedToWaitRequeuesTheDocumentAndResumesAfterTheWait() {
        embeddings.retryLaterOnce(Duration.ofHours(1));
        int embeddedBefore = embeddings.textsEmbedded();

        UUID id = UUID.fromString(api.post(
                        "/v1/documents",
                        aText("The Bell Rock light " + UUID.randomUUID() + " stands on a reef eleven miles out to sea.")
                                .build())
                .json()
                .get("id")
                .asString());

        await().atMost(Duration.ofSeconds(60)).until(() -> secondsUntilDue(id) != null && secondsUntilDue(id) > 3000);
        assertThat(secondsUntilDue(id)).isBetween(3590.0, 3601.0);
        JsonNode queued = api.get("/v1/documents/" + id).json();
        assertThat(queued.get("status").asString()).isEqualTo("QUEUED");
        assertThat(queued.get("failureReason")).isNull();
        JsonNode embed = stage(queued, "embed");
        assertThat(embed.get("status").asString()).isEqualTo("PENDING");
        assertThat(embed.get("message").asString()).startsWith("waiting: ").contains("asked to wait 3600 s");
        assertThat(stage(queued, "segment").get("status").asString())
                .as("work done before the wait is kept")
                .isEqualTo("DONE");
        assertThat(embeddings.textsEmbedded()).isEqualTo(embeddedBefore);

        jdbc.sql(
                        "UPDATE scheduled_tasks SET execution_time = now() WHERE task_name = 'ingest-document' AND task_instance = ?")
                .param(id.toString())
                .update();

        JsonNode ready = api.awaitDocument(id, "READY", Duration.ofSeconds(60));
        assertThat(stage(ready, "embed").get("status").asString()).isEqualTo("DONE");
        JsonNode message = stage(ready, "embed").path("message");
        assertThat(message.isNull() || message.isMissingNode())
                .as("the wait is over: " + message)
                .isTrue();
        assertThat(embeddings.textsEmbedded() - embeddedBefore)
                .as("each chunk, then each sentence for the sentences memory")
                .isEqualTo(ready.get("chunkCount").asInt() + IngestionRecoveryTest.sentences(jdbc, id));
        assertThat(api.post(
                                "/v1/search",
                                Map.of("documentIds", java.util.List.of(id), "query", "reef", "mode", "vector"))
                        .json()
                        .get("hits"))
                .isNotEmpty();
    }

    /** Seconds until the document's ingestion job is due, while it waits unpicked; null otherwise. */
    private Double secondsUntilDue(UUID id) {
        return jdbc.sql("""
                SELECT extract(epoch FROM execution_time - now()) FROM scheduled_tasks
                WHERE task_name = 'ingest-document' AND task_instance = ? AND NOT picked""").param(id.toString()).query(Double.class).optional().orElse(null);
    }

    private static JsonNode stage(JsonNode document, String name) {
        for (JsonNode stage : document.get("stages")) {
            if (stage.get("name").asString().equals(name)) {
                return stage;
            }
        }
        throw new AssertionError("no stage " + name + " in " + document);
    }
}
