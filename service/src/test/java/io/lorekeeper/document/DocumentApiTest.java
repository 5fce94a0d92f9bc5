package io.lorekeeper.document;

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

@IntegrationTest
class DocumentApiTest {

    private static final String STORY = """
            The lighthouse keeper of Skerry Point was a woman named Agnes Brodie. She kept the lamp burning for
            forty-one winters and never once let it fail.

            In 1887 a storm drove the schooner Marigold onto the rocks below the tower. Agnes rowed out alone and
            brought back six sailors, one of them the captain's son, Tobias Wren.
            """;

    @Autowired
    Api api;

    @Autowired
    JdbcClient jdbc;

    @Test
    void ingestsATextAndReportsEachStage() {
        Response created = api.post(
                "/v1/documents",
                aText(STORY)
                        .titled("Skerry Point")
                        .withMetadata(Map.of("source", "test"))
                        .build());

        assertThat(created.status()).isEqualTo(202);
        UUID id = UUID.fromString(created.json().get("id").asString());
        assertThat(created.header("Location")).isEqualTo("/v1/documents/" + id);

        JsonNode doc = api.awaitDocument(id, "READY", Duration.ofMinutes(1));
        assertThat(doc.get("title").asString()).isEqualTo("Skerry Point");
        assertThat(doc.get("kind").asString()).isEqualTo("TEXT");
        assertThat(doc.get("metadata").get("source").asString()).isEqualTo("test");
        assertThat(doc.get("chunkCount").asInt()).isPositive();
        assertThat(doc.get("stages"))
                .extracting(s -> s.get("name").asString())
                .containsExactly(
                        "segment",
                        "embed",
                        "sentences",
                        "memos",
                        "page-headers",
                        "graph",
                        "veridical",
                        "triples",
                        "semantic",
                        "episodic");
        assertThat(doc.get("stages"))
                .extracting(s -> s.get("kind").asString())
                .containsExactly(
                        "retrieval",
                        "retrieval",
                        "enrichment",
                        "enrichment",
                        "enrichment",
                        "enrichment",
                        "enrichment",
                        "enrichment",
                        "enrichment",
                        "enrichment");
        assertThat(doc.get("stages"))
                .extracting(s -> s.get("status").asString())
                .containsExactly(
                        "DONE", "DONE", "DONE", "SKIPPED", "SKIPPED", "SKIPPED", "SKIPPED", "SKIPPED", "SKIPPED",
                        "SKIPPED");
        for (JsonNode stage : doc.get("stages")) {
            if (stage.get("status").asString().equals("DONE")) {
                assertThat(stage.get("done").asInt())
                        .isEqualTo(stage.get("total").asInt())
                        .isEqualTo(doc.get("chunkCount").asInt());
            } else {
                assertThat(stage.get("message").asString())
                        .as("why %s was skipped", stage.get("name"))
                        .contains("no LLM is configured");
            }
        }
        int embedded = jdbc.sql("SELECT count(*) FROM chunk WHERE document_id = ? AND embedding IS NOT NULL")
                .param(id)
                .query(Integer.class)
                .single();
        assertThat(embedded).isEqualTo(doc.get("chunkCount").asInt());
    }

    @Test
    void repostingTheSameContentReturnsTheStoredDocument() {
        String text = "A unique note about the 31 brass keys of the Ardmore clock tower.";
        UUID first = api.ingest(aText(text).build());

        Response again =
                api.post("/v1/documents", aText(text).titled("another title").build());

        assertThat(again.status()).isEqualTo(200);
        assertThat(again.json().get("id").asString()).isEqualTo(first.toString());
        assertThat(again.json().get("created").asBoolean()).isFalse();
        assertThat(jdbc.sql(
                                "SELECT count(*) FROM document WHERE content_hash = (SELECT content_hash FROM document WHERE id = ?)")
                        .param(first)
                        .query(Integer.class)
                        .single())
                .isEqualTo(1);
    }

    @Test
    void servesSpansOfTheCanonicalText() {
        UUID id = api.ingest(
                aText("Line one.\r\nLine two, with a CRLF before it.").build());

        JsonNode span = api.get("/v1/documents/" + id + "/text?start=10&end=18").json();

        assertThat(span.get("text").asString()).isEqualTo("Line two");
        assertThat(api.get("/v1/documents/" + id + "/text").json().get("text").asString())
                .isEqualTo("Line one.\nLine two, with a CRLF before it.");
        Response outOfRange = api.get("/v1/documents/" + id + "/text?start=5&end=999");
        assertThat(outOfRange.status()).isEqualTo(400);
        assertThat(outOfRange.json().get("field").asString()).isEqualTo("end");
    }

    @Test
    void deletesTheDocumentAndEverythingDerivedFromIt() {
        UUID id = api.ingest(aText("The orchard at Kelling had nineteen pear trees and one old fig.")
                .build());

        assertThat(api.delete("/v1/documents/" + id).status()).isEqualTo(204);

        assertThat(api.get("/v1/documents/" + id).status()).isEqualTo(404);
        assertThat(api.delete("/v1/documents/" + id).status()).isEqualTo(404);
        for (String table : new String[] {"chunk", "page", "document_text", "ingestion_stage"}) {
            assertThat(jdbc.sql("SELECT count(*) FROM " + table + " WHERE document_id = ?")
                            .param(id)
                            .query(Integer.class)
                            .single())
                    .as(table)
                    .isZero();
        }
    }

    @Test
    void listsDocumentsNewestFirstInPages() {
        UUID older = api.ingest(
                aText("Paging test document number one, about kites.").build());
        UUID newer = api.ingest(
                aText("Paging test document number two, about boats.").build());

        List<String> ids = new java.util.ArrayList<>();
        api.get("/v1/documents?page=0&size=200")
                .json()
                .get("items")
                .forEach(item -> ids.add(item.get("id").asString()));

        assertThat(ids.indexOf(newer.toString())).isNotNegative().isLessThan(ids.indexOf(older.toString()));
        JsonNode page = api.get("/v1/documents?page=0&size=1").json();
        assertThat(page.get("items")).hasSize(1);
        assertThat(page.get("total").asLong()).isGreaterThanOrEqualTo(2);
        assertThat(api.get("/v1/documents?size=0").json().get("field").asString())
                .isEqualTo("size");
    }

    @Test
    void rendersConversationsWithTurnSpans() {
        UUID id = api.ingest(aConversation()
                .session(
                        "1:56 pm on 8 May, 2023",
                        "Caroline",
                        "I went to the support group yesterday.",
                        "Melanie",
                        "How was it?")
                .session(null, "Caroline", "I adopted a dog named Biscuit!")
                .build());

        String text =
                api.get("/v1/documents/" + id + "/text").json().get("text").asString();

        assertThat(text).isEqualTo("""
                [Session 1, 1:56 pm on 8 May, 2023]
                Caroline: I went to the support group yesterday.
                Melanie: How was it?

                [Session 2]
                Caroline: I adopted a dog named Biscuit!""");
        Map<String, Object> turn = jdbc.sql(
                        "SELECT start_offset, end_offset FROM conversation_turn WHERE document_id = ? AND turn_id = 'D2:1'")
                .param(id)
                .query()
                .singleRow();
        assertThat(text.substring((Integer) turn.get("start_offset"), (Integer) turn.get("end_offset")))
                .isEqualTo("Caroline: I adopted a dog named Biscuit!");
        assertThat(jdbc.sql("SELECT count(*) FROM page WHERE document_id = ?")
                        .param(id)
                        .query(Integer.class)
                        .single())
                .isEqualTo(2);
    }

    @Test
    void acceptsTextAndMarkdownUploads() {
        byte[] content = "# Notes\n\nThe ferry to Inchmurrin leaves at seven.".getBytes(StandardCharsets.UTF_8);

        Response uploaded = api.upload("/v1/documents/files", "ferry-notes.md", "text/markdown", content, Map.of());

        assertThat(uploaded.status()).isEqualTo(202);
        JsonNode doc = api.awaitDocument(
                UUID.fromString(uploaded.json().get("id").asString()), "READY", Duration.ofMinutes(1));
        assertThat(doc.get("title").asString()).isEqualTo("ferry-notes");
    }

    @Test
    void filesGoToTheirOwnPathAndDocumentsTakeJsonOnly() {
        byte[] content = "The lighthouse keeper logs every ship.".getBytes(StandardCharsets.UTF_8);

        Response multipartToJson = api.upload("/v1/documents", "log.txt", "text/plain", content, Map.of());

        assertThat(multipartToJson.status()).isEqualTo(415);
        assertThat(multipartToJson.header("Content-Type")).startsWith("application/problem+json");
    }

    @Test
    void anEmptySessionsListBesideTheTextCountsAsAbsent() {
        Response created = api.post(
                "/v1/documents", Map.of("text", "A keeper counts gulls " + UUID.randomUUID(), "sessions", List.of()));

        assertThat(created.status()).as(created.body()).isEqualTo(202);
        JsonNode doc =
                api.awaitDocument(UUID.fromString(created.json().get("id").asString()), "READY", Duration.ofMinutes(1));
        assertThat(doc.get("kind").asString()).isEqualTo("TEXT");
        assertProblem(api.post("/v1/documents", Map.of("sessions", List.of())), 400, "sessions");
    }

    @Test
    void rejectsOtherFileTypesWith415() {
        Response pdf = api.upload(
                "/v1/documents/files",
                "report.pages",
                "application/octet-stream",
                "%PDF-1.4".getBytes(StandardCharsets.UTF_8),
                Map.of());

        assertThat(pdf.status()).isEqualTo(415);
        assertThat(pdf.header("Content-Type")).startsWith("application/problem+json");
        assertThat(pdf.json().get("field").asString()).isEqualTo("file");
    }

    @Test
    void rejectsInvalidUtf8Uploads() {
        byte[] latin1 = "caf\u00e9 au lait".getBytes(StandardCharsets.ISO_8859_1);

        Response response = api.upload("/v1/documents/files", "menu.txt", "text/plain", latin1, Map.of());

        assertProblem(response, 400, "file");
        assertThat(response.json().get("detail").asString()).contains("UTF-8");
    }

    @Test
    void rejectsBadJsonBodiesNamingTheField() {
        assertProblem(api.post("/v1/documents", Map.of("text", "   \n\t ")), 400, "text");
        assertProblem(api.post("/v1/documents", Map.of("title", "x".repeat(501), "text", "fine text")), 400, "title");
        assertProblem(api.post("/v1/documents", Map.of("text", "fine", "profile", "deluxe")), 400, "profile");
        assertProblem(
                api.post(
                        "/v1/documents",
                        Map.of(
                                "text",
                                "fine",
                                "sessions",
                                List.of(Map.of("turns", List.of(Map.of("speaker", "A", "text", "hi")))))),
                400,
                "sessions");
        assertProblem(
                api.post(
                        "/v1/documents",
                        Map.of(
                                "sessions",
                                List.of(Map.of(
                                        "turns",
                                        List.of(
                                                Map.of("speaker", "A", "text", "hi"),
                                                Map.of("speaker", " ", "text", "yo")))))),
                400,
                "sessions[0].turns[1].speaker");
        // Bodies that do not bind (broken JSON, a wrong type, bytes that are not UTF-8) are DocumentControllerTest's.
    }

    @Test
    void textsOverTheSizeLimitAre413NamingTheField() {
        String tooLong = "a".repeat(20 * 1024 * 1024 + 1);

        Response response = api.post("/v1/documents", Map.of("text", tooLong));

        assertProblem(response, 413, "text");
    }

    @Test
    void anUnknownDocumentIs404() {
        assertProblem(api.get("/v1/documents/" + UUID.randomUUID()), 404, null);
    }

    static void assertProblem(Response response, int status, String field) {
        assertThat(response.status()).as(response.body()).isEqualTo(status);
        assertThat(response.header("Content-Type")).startsWith("application/problem+json");
        JsonNode problem = response.json();
        assertThat(problem.get("title").asString()).isNotBlank();
        assertThat(problem.get("status").asInt()).isEqualTo(status);
        if (field != null) {
            assertThat(problem.get("field")).as(response.body()).isNotNull();
            assertThat(problem.get("field").asString()).isEqualTo(field);
        }
    }
}
