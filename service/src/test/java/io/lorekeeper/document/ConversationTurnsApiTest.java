package io.lorekeeper.document;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.lorekeeper.support.Api;
import io.lorekeeper.support.IntegrationTest;
import tools.jackson.databind.JsonNode;

/** GET /v1/documents/{id}/turns: where each turn sits in the canonical text. */
@IntegrationTest
class ConversationTurnsApiTest {

    @Autowired
    Api api;

    @Test
    void listsEveryTurnWithItsSpanInTheCanonicalText() {
        UUID id = api.ingest(Map.of(
                "title",
                "turns " + UUID.randomUUID(),
                "sessions",
                List.of(
                        Map.of(
                                "id",
                                "s1",
                                "dateTime",
                                "1 May 2023",
                                "turns",
                                List.of(
                                        Map.of("id", "D1:1", "speaker", "Ann", "text", "I adopted a cat."),
                                        Map.of("id", "D1:2", "speaker", "Bob", "text", "What is its name?"))),
                        Map.of(
                                "id",
                                "s2",
                                "turns",
                                List.of(Map.of("id", "D2:1", "speaker", "Ann", "text", "Her name is Miso."))))));
        api.awaitDocument(id, "READY", Duration.ofSeconds(60));
        String text =
                api.get("/v1/documents/" + id + "/text").json().path("text").asString();

        JsonNode turns = api.get("/v1/documents/" + id + "/turns").json();
        assertThat(turns).hasSize(3);
        assertThat(turns.get(0).path("turnId").asString()).isEqualTo("D1:1");
        assertThat(turns.get(2).path("turnId").asString()).isEqualTo("D2:1");
        assertThat(turns.get(2).path("sessionId").asString()).isEqualTo("s2");
        for (JsonNode t : turns) {
            String span = text.substring(t.path("start").asInt(), t.path("end").asInt());
            assertThat(span).startsWith(t.path("speaker").asString() + ": ");
        }
        assertThat(text.substring(
                        turns.get(2).path("start").asInt(),
                        turns.get(2).path("end").asInt()))
                .contains("Her name is Miso.");
    }

    @Test
    void isEmptyForATextAndNotFoundForAnUnknownDocument() {
        UUID id = api.ingest(Map.of("title", "plain", "text", "Just a text " + UUID.randomUUID() + "."));
        assertThat(api.get("/v1/documents/" + id + "/turns").json()).isEmpty();
        assertThat(api.get("/v1/documents/" + UUID.randomUUID() + "/turns").status())
                .isEqualTo(404);
    }
}
