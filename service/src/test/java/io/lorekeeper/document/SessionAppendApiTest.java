package io.lorekeeper.document;

import static io.lorekeeper.document.DocumentApiTest.assertProblem;
import static io.lorekeeper.support.TestDocuments.aConversation;
import static io.lorekeeper.support.TestDocuments.aText;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.lorekeeper.support.Api;
import io.lorekeeper.support.Api.Response;
import io.lorekeeper.support.IntegrationTest;
import tools.jackson.databind.JsonNode;

/** POST /v1/documents/{id}/sessions with no LLM configured: the conversation grows, the memorizer stages say why they skip. */
@IntegrationTest
class SessionAppendApiTest {

    @Autowired
    Api api;

    @Autowired
    JdbcClient jdbc;

    private static Map<String, Object> turn(String speaker, String text) {
        return Map.of("speaker", speaker, "text", text);
    }

    private static Map<String, Object> sessions(Map<String, Object>... sessions) {
        return Map.of("sessions", List.of(sessions));
    }

    @Test
    void appendsSessionsWithoutTouchingWhatIsStoredAndSkipsTheMemorizerWithItsReason() {
        UUID id = api.ingest(aConversation()
                .session(
                        "10:00 am on 4 May, 2024",
                        "Wren",
                        "The lighthouse at Fennick Rock needs a new lens.",
                        "Ash",
                        "Who pays for it?")
                .session("2:30 pm on 11 May, 2024", "Wren", "The harbour trust agreed to pay 4,000 pounds.")
                .build());
        JsonNode before = api.get("/v1/documents/" + id).json();
        for (String stage : List.of("memos", "page-headers")) {
            JsonNode skipped = stage(before, stage);
            assertThat(skipped.get("status").asString()).isEqualTo("SKIPPED");
            assertThat(skipped.get("message").asString()).contains("no LLM is configured");
        }
        String textBefore = text(id);
        List<Map<String, Object>> chunksBefore = chunks(id);

        Response appended = api.post(
                "/v1/documents/" + id + "/sessions",
                sessions(Map.of(
                        "id",
                        "s3",
                        "dateTime",
                        "9:00 am on 20 May, 2024",
                        "turns",
                        List.of(
                                turn("Ash", "The lens arrived from Glasgow."),
                                Map.of("id", "lens-fitted", "speaker", "Wren", "text", "Fitted it today.")))));

        assertThat(appended.status()).as(appended.body()).isEqualTo(202);
        assertThat(appended.header("Location")).isEqualTo("/v1/documents/" + id);
        assertThat(appended.json().get("status").asString()).isEqualTo("QUEUED");
        JsonNode session = appended.json().get("sessions").get(0);
        assertThat(session.get("id").asString()).isEqualTo("s3");
        assertThat(session.get("turnIds")).extracting(JsonNode::asString).containsExactly("D3:1", "lens-fitted");
        JsonNode after = api.awaitDocument(id, "READY", Duration.ofMinutes(1));

        String text = text(id);
        assertThat(text)
                .startsWith(textBefore)
                .isEqualTo(
                        textBefore
                                + "\n\n[Session 3, 9:00 am on 20 May, 2024]\nAsh: The lens arrived from Glasgow.\nWren: Fitted it today.");
        assertThat(after.get("charCount").asInt()).isEqualTo(text.length());
        Map<String, Object> fitted = jdbc.sql(
                        "SELECT start_offset, end_offset FROM conversation_turn WHERE document_id = ? AND turn_id = 'lens-fitted'")
                .param(id)
                .query()
                .singleRow();
        assertThat(text.substring((Integer) fitted.get("start_offset"), (Integer) fitted.get("end_offset")))
                .isEqualTo("Wren: Fitted it today.");
        List<Map<String, Object>> chunksAfter = chunks(id);
        assertThat(chunksAfter).startsWith(chunksBefore.toArray(Map[]::new)).hasSize(chunksBefore.size() + 1);
        assertThat(chunksAfter.getLast().get("embedding")).isNotNull();
        assertThat(chunksAfter.getLast().get("turn_ids").toString())
                .contains("D3:1")
                .contains("lens-fitted");
        assertThat(jdbc.sql("SELECT session_id FROM page WHERE document_id = ? ORDER BY ordinal")
                        .param(id)
                        .query(String.class)
                        .list())
                .containsExactly("1", "2", "s3");
        assertThat(stage(after, "segment").get("status").asString()).isEqualTo("DONE");
        assertThat(stage(after, "embed").get("done").asInt()).isEqualTo(chunksAfter.size());
        assertThat(stage(after, "memos").get("status").asString()).isEqualTo("SKIPPED");
        assertThat(stage(after, "page-headers").get("message").asString()).contains("no LLM is configured");
        assertThat(jdbc.sql("SELECT df FROM document_lexeme WHERE document_id = ? AND lexeme = 'glasgow'")
                        .param(id)
                        .query(Integer.class)
                        .single())
                .as("the appended session's words count for BM25")
                .isEqualTo(1);
        assertThat(lexemeCounts("SELECT lexeme, df FROM document_lexeme WHERE document_id = ?", id))
                .as("kept equal to the chunks")
                .isEqualTo(lexemeCounts(
                        "SELECT u.lexeme, count(*) FROM chunk c CROSS JOIN LATERAL unnest(c.tsv) u "
                                + "WHERE c.document_id = ? GROUP BY u.lexeme",
                        id));

        // The grown conversation hashes like the same three sessions posted at once.
        Response same = api.post(
                "/v1/documents",
                aConversation()
                        .session(
                                "10:00 am on 4 May, 2024",
                                "Wren",
                                "The lighthouse at Fennick Rock needs a new lens.",
                                "Ash",
                                "Who pays for it?")
                        .session("2:30 pm on 11 May, 2024", "Wren", "The harbour trust agreed to pay 4,000 pounds.")
                        .session(
                                "9:00 am on 20 May, 2024",
                                "Ash",
                                "The lens arrived from Glasgow.",
                                "Wren",
                                "Fitted it today.")
                        .build());
        assertThat(same.status()).isEqualTo(200);
        assertThat(same.json().get("id").asString()).isEqualTo(id.toString());
    }

    @Test
    void refusesBadAppendsNamingTheFieldAndLeavesTheConversationAsItWas() {
        UUID id = api.ingest(aConversation()
                .session(null, "Moss", "Only one thing to say about the Tarn ferry.")
                .build());
        String textBefore = text(id);

        assertProblem(
                api.post(
                        "/v1/documents/" + UUID.randomUUID() + "/sessions",
                        sessions(Map.of("turns", List.of(turn("A", "hi"))))),
                404,
                null);
        assertProblem(api.post("/v1/documents/" + id + "/sessions", Map.of("sessions", List.of())), 400, "sessions");
        assertProblem(api.post("/v1/documents/" + id + "/sessions", Map.of()), 400, "sessions");
        assertProblem(
                api.post("/v1/documents/" + id + "/sessions", sessions(Map.of("turns", List.of()))), 400, "sessions");
        assertProblem(
                api.post(
                        "/v1/documents/" + id + "/sessions",
                        sessions(
                                Map.of("turns", List.of(turn("A", "fine"))),
                                Map.of("turns", List.of(turn("B", "fine"), turn(" ", "no speaker"))))),
                400,
                "sessions[1].turns[1].speaker");
        Response turnIdTaken = api.post(
                "/v1/documents/" + id + "/sessions",
                sessions(Map.of("turns", List.of(Map.of("id", "D1:1", "speaker", "A", "text", "again")))));
        assertProblem(turnIdTaken, 400, "sessions[0].turns[0].id");
        assertThat(turnIdTaken.json().get("detail").asString()).contains("already in the conversation");
        assertProblem(
                api.post(
                        "/v1/documents/" + id + "/sessions",
                        sessions(Map.of("id", "1", "turns", List.of(turn("A", "x"))))),
                400,
                "sessions[0].id");
        Response malformed = api.postRaw(
                "/v1/documents/" + id + "/sessions",
                "application/json",
                "{\"sessions\": [".getBytes(StandardCharsets.UTF_8));
        assertThat(malformed.status()).isEqualTo(400);

        UUID textDocument =
                api.ingest(aText("The Tarn ferry runs twice a day in summer.").build());
        Response notAConversation = api.post(
                "/v1/documents/" + textDocument + "/sessions", sessions(Map.of("turns", List.of(turn("A", "hi")))));
        assertProblem(notAConversation, 409, null);
        assertThat(notAConversation.json().get("detail").asString()).contains("TEXT");

        assertThat(text(id)).isEqualTo(textBefore);
        JsonNode doc = api.get("/v1/documents/" + id).json();
        assertThat(doc.get("status").asString()).isEqualTo("READY");
        assertThat(jdbc.sql("SELECT count(*) FROM conversation_session WHERE document_id = ?")
                        .param(id)
                        .query(Integer.class)
                        .single())
                .isEqualTo(1);
    }

    private String text(UUID id) {
        return api.get("/v1/documents/" + id + "/text").json().get("text").asString();
    }

    private List<Map<String, Object>> chunks(UUID id) {
        return jdbc.sql("""
                SELECT id, ordinal, page_ordinal, start_offset, end_offset, turn_ids::text AS turn_ids, embedding::text AS embedding
                FROM chunk WHERE document_id = ? ORDER BY ordinal""").param(id).query().listOfRows();
    }

    private static JsonNode stage(JsonNode document, String name) {
        for (JsonNode stage : document.get("stages")) {
            if (stage.get("name").asString().equals(name)) {
                return stage;
            }
        }
        throw new AssertionError("no stage " + name + " in " + document);
    }

    private Map<String, Long> lexemeCounts(String sql, UUID id) {
        Map<String, Long> counts = new java.util.TreeMap<>();
        jdbc.sql(sql)
                .param(id)
                .query((rs, n) -> counts.put(rs.getString(1), rs.getLong(2)))
                .list();
        return counts;
    }
}
