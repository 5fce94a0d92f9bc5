package io.lorekeeper.extractive;

import static io.lorekeeper.support.TestDocuments.aText;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.lorekeeper.support.Api;
import io.lorekeeper.support.IntegrationTest;
import tools.jackson.databind.JsonNode;

/**
 * The sentences memory: once a document's {@code sentences} stage is done, an extractive question
 * reads every candidate sentence's vector from it and embeds none; without it (a document stored
 * before the stage existed, say) the question embeds them as before, and answers the same.
 */
@IntegrationTest
class StoredSentenceVectorsTest {

    private static final String MILL = """
            In the spring of 1902 the old mill of Kilmory burned down. The fire was started by a lamp that \
            Hector Munro had left burning in the loft. Nobody was hurt.

            After the fire Ewan rebuilt the mill in stone. The new mill was finished in 1904 and ground barley \
            as well as oats. Hector paid for the new millstones with the money he had saved in Glasgow.
            """;

    @Autowired
    Api api;

    @Autowired
    JdbcClient jdbc;

    @Test
    void aQuestionScoresWithStoredVectorsAndAnswersTheSameWithoutThem() {
        UUID id = api.ingest(aText(MILL + " (" + UUID.randomUUID() + ")").build());
        JsonNode document = api.get("/v1/documents/" + id).json();
        JsonNode stage = null;
        for (JsonNode s : document.get("stages")) {
            if (s.get("name").asString().equals("sentences")) {
                stage = s;
            }
        }
        assertThat(stage).as("the sentences stage: %s", document).isNotNull();
        assertThat(stage.get("status").asString()).isEqualTo("DONE");
        assertThat(stage.get("kind").asString()).isEqualTo("enrichment");
        int stored = jdbc.sql("SELECT count(*) FROM sentence_vector WHERE document_id = ?")
                .param(id)
                .query(Integer.class)
                .single();
        assertThat(stored)
                .as("one vector per sentence of the text: six, and the marker that makes it new")
                .isEqualTo(7);

        JsonNode withStored = ask(id, "Who paid for the new millstones?");
        JsonNode sentences = event(withStored, "extractive.sentences");
        assertThat(sentences.get("storedVectors").asInt())
                .isEqualTo(sentences.get("candidates").asInt());
        assertThat(sentences.get("embeddedVectors").asInt()).isZero();

        jdbc.sql("DELETE FROM sentence_vector WHERE document_id = ?").param(id).update();
        JsonNode embedded = ask(id, "Who paid for the new millstones?");
        JsonNode again = event(embedded, "extractive.sentences");
        assertThat(again.get("storedVectors").asInt()).isZero();
        assertThat(again.get("embeddedVectors").asInt())
                .isEqualTo(sentences.get("candidates").asInt());

        assertThat(embedded.get("answer").asString())
                .isEqualTo(withStored.get("answer").asString());
        assertThat(withStored.get("answer").asString()).contains("Hector");
        assertThat(embedded.get("confidence").asDouble())
                .isCloseTo(withStored.get("confidence").asDouble(), org.assertj.core.data.Offset.offset(0.01));
    }

    private JsonNode ask(UUID id, String question) {
        JsonNode answer = api.ask(Map.of("documentIds", List.of(id), "question", question, "strategy", "extractive"));
        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        return answer;
    }

    private JsonNode event(JsonNode question, String type) {
        List<JsonNode> found = api.traceEvents(question, type);
        assertThat(found).as(type + " events").hasSize(1);
        return found.getFirst();
    }
}
