package io.lorekeeper.document;

import static io.lorekeeper.support.TestDocuments.aText;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.lorekeeper.memory.FaultInjectingEmbeddingModel;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.IntegrationTest;
import tools.jackson.databind.JsonNode;

/** Questions and searches need READY documents: one still ingesting, or failed, is refused with a 409 naming it. */
@IntegrationTest
class DocumentReadinessTest {

    @Autowired
    Api api;

    @Autowired
    FaultInjectingEmbeddingModel embeddings;

    @AfterEach
    void heal() {
        embeddings.heal();
    }

    @Test
    void aDocumentStillIngestingIsRefusedUntilItIsReady() {
        embeddings.hold();
        String marker = UUID.randomUUID().toString().substring(0, 8);
        UUID id = UUID.fromString(api.post(
                        "/v1/documents",
                        aText("The tide mill of Carew " + marker + " ground corn for four hundred years.")
                                .build())
                .json()
                .get("id")
                .asString());
        // the embed stage is inside the model, held there: the document cannot be READY yet
        await().atMost(Duration.ofSeconds(60)).until(() -> embeddings.held() > 0);
        assertThat(api.get("/v1/documents/" + id).json().get("status").asString())
                .isEqualTo("INGESTING");

        Api.Response question =
                api.post("/v1/questions", Map.of("documentIds", List.of(id), "question", "What did the mill grind?"));
        Api.Response search = api.post("/v1/search", Map.of("documentIds", List.of(id), "query", "tide mill"));

        for (Api.Response refused : List.of(question, search)) {
            assertThat(refused.status()).as(refused.body()).isEqualTo(409);
            assertThat(refused.header("Content-Type")).startsWith("application/problem+json");
            JsonNode problem = refused.json();
            assertThat(problem.get("type").asString()).endsWith("/document-not-ready");
            assertThat(problem.get("field").asString()).isEqualTo("documentIds");
            assertThat(problem.get("detail").asString()).contains(id.toString()).contains("INGESTING");
        }

        embeddings.release();
        api.awaitDocument(id, "READY", Duration.ofMinutes(1));
        JsonNode answer = api.ask(Map.of("documentIds", List.of(id), "question", "What did the mill grind?"));
        assertThat(answer.get("status").asString()).isEqualTo("DONE");
        assertThat(answer.get("answer").asString()).contains("corn");
    }

    @Test
    void aFailedDocumentIsRefusedWithItsStatus() {
        embeddings.failAfter(0);
        UUID id = UUID.fromString(api.post(
                        "/v1/documents",
                        aText("The ferry " + UUID.randomUUID() + " crossed the Kyle twice a day.")
                                .build())
                .json()
                .get("id")
                .asString());
        api.awaitDocument(id, "FAILED", Duration.ofMinutes(1));

        Api.Response refused = api.post("/v1/questions", Map.of("documentIds", List.of(id), "question", "How often?"));

        assertThat(refused.status()).as(refused.body()).isEqualTo(409);
        assertThat(refused.json().get("type").asString()).endsWith("/document-not-ready");
        assertThat(refused.json().get("detail").asString()).contains("FAILED");
    }
}
