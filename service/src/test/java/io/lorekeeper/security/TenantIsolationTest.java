package io.lorekeeper.security;

import static io.lorekeeper.support.TestDocuments.aConversation;
import static io.lorekeeper.support.TestDocuments.aText;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.lorekeeper.support.Api;
import io.lorekeeper.support.SecuredIntegrationTest;
import io.lorekeeper.support.Tenancy;
import tools.jackson.databind.JsonNode;

/**
 * Tenant B walks every endpoint that takes an id or a list of documents, pointed at tenant A's
 * resources: each answers 404 as for an id that never existed (never 403), changes nothing of A's,
 * and B's searches and listings never show A's content.
 */
@SecuredIntegrationTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TenantIsolationTest {

    private static final String SHARED_TEXT =
            "The lighthouse keeper of Fennick Rock logged a green flash at dusk on the ninth of May. "
                    + "Nobody on the mainland believed him until the harbour master saw it too.";

    @Autowired
    Api api;

    @Autowired
    JdbcClient jdbc;

    private Tenancy.TenantWithKey a;
    private Tenancy.TenantWithKey b;
    private UUID aText;
    private UUID aConversation;
    private UUID aQuestion;
    private String aEvaluation;
    private UUID aThread;

    @BeforeAll
    void tenantAOwnsDocumentsAQuestionAndAnEvaluation() {
        Tenancy tenancy = new Tenancy(api);
        a = tenancy.tenant("isolation-a", null, true);
        b = tenancy.tenant("isolation-b");
        aText = a.api().ingest(aText(SHARED_TEXT).titled("A's log").build());
        aConversation = a.api()
                .ingest(aConversation()
                        .titled("A's chat")
                        .session(
                                "10:00 am on 4 May, 2024",
                                "Wren",
                                "The harbour trust will pay for the new lens.",
                                "Ash",
                                "How much?")
                        .build());
        JsonNode asked = a.api()
                .ask(Map.of(
                        "documentIds",
                        List.of(aText),
                        "question",
                        "What did the keeper see at dusk?",
                        "strategy",
                        "extractive"));
        assertThat(asked.get("status").asString()).as(asked.toString()).isEqualTo("DONE");
        aQuestion = UUID.fromString(asked.get("id").asString());
        aThread = UUID.fromString(a.api()
                .post("/v1/threads", Map.of("title", "A's thread"))
                .json()
                .get("id")
                .asString());
        Api.Response evaluation = a.api()
                .post(
                        "/v1/evaluations",
                        Map.of(
                                "dataset",
                                "jsonl",
                                "strategies",
                                List.of("extractive"),
                                "items",
                                List.of(Map.of(
                                        "id",
                                        "q1",
                                        "question",
                                        "Who pays for the lens?",
                                        "answer",
                                        "the harbour trust",
                                        "document",
                                        Map.of(
                                                "title",
                                                "eval-lens",
                                                "text",
                                                "The harbour trust pays for the lens of the Fennick Rock light.")))));
        assertThat(evaluation.status()).as(evaluation.body()).isEqualTo(202);
        aEvaluation = evaluation.header("Location");
        JsonNode finished = a.api().awaitFinished(aEvaluation, Duration.ofMinutes(2));
        assertThat(finished.get("status").asString()).as(finished.toString()).isEqualTo("DONE");
        // Usage rows of A's (no model here: recorded as the gateway would record them).
        jdbc.sql(
                        "INSERT INTO llm_call (tenant_id, question_id, role, profile, model, template, prompt_tokens, completion_tokens, outcome) "
                                + "VALUES (?, ?, 'answerer', 'default', 'm', 'rag/answer', 700, 70, 'ok')")
                .params(a.id(), aQuestion)
                .update();
    }

    @Test
    void everyEndpointWithAnIdAnswersTenantBWith404() {
        Api other = b.api();
        List<String> refused = new ArrayList<>();
        List<Api.Response> responses = List.of(
                other.get("/v1/documents/" + aText),
                other.get("/v1/documents/" + aText + "/text"),
                other.get("/v1/documents/" + aText + "/text?start=0&end=10"),
                other.get("/v1/documents/" + aConversation + "/turns"),
                other.get("/v1/documents/" + aText + "/graph"),
                other.post("/v1/documents/" + aText + "/reindex", Map.of()),
                other.post("/v1/documents/" + aText + "/reindex", Map.of("stages", List.of("embed"))),
                other.post(
                        "/v1/documents/" + aConversation + "/sessions",
                        Map.of(
                                "sessions",
                                List.of(Map.of("turns", List.of(Map.of("speaker", "Mallory", "text", "mine now")))))),
                other.delete("/v1/documents/" + aText),
                other.post("/v1/search", Map.of("documentIds", List.of(aText), "query", "green flash")),
                other.post(
                        "/v1/questions",
                        Map.of("documentIds", List.of(aText), "question", "What flashed?", "strategy", "extractive")),
                other.get("/v1/questions/" + aQuestion),
                other.get("/v1/questions/" + aQuestion + "/trace"),
                other.get("/v1/questions/" + aQuestion + "/events"),
                other.post("/v1/questions/" + aQuestion + "/retry", Map.of()),
                other.get("/v1/threads/" + aThread),
                other.delete("/v1/threads/" + aThread),
                other.post(
                        "/v1/questions",
                        Map.of("question", "And then?", "threadId", aThread, "strategy", "extractive")),
                other.get(aEvaluation),
                other.post(aEvaluation + "/retry", Map.of()));
        for (Api.Response response : responses) {
            // Type not-found everywhere: the graph endpoint, say, answers the owner of a graph-less document with
            // no-graph instead.
            if (response.status() != 404
                    || !response.header("Content-Type").startsWith("application/problem+json")
                    || !response.json().get("type").asString().endsWith("/not-found")) {
                refused.add(response.status() + " " + response.body());
            }
        }
        assertThat(refused)
                .as("responses to tenant B that were not a 404 problem")
                .isEmpty();
        // A 404 for another tenant's id reads exactly like one for an id that never existed.
        UUID unknown = UUID.randomUUID();
        assertThat(other.get("/v1/documents/" + aText).json().get("title").asString())
                .isEqualTo(other.get("/v1/documents/" + unknown)
                        .json()
                        .get("title")
                        .asString());
        // Nothing of A's changed: the delete, reindex and append B attempted did not happen.
        JsonNode doc = a.api().get("/v1/documents/" + aText).json();
        assertThat(doc.get("status").asString()).isEqualTo("READY");
        assertThat(a.api()
                        .get("/v1/documents/" + aConversation + "/text")
                        .json()
                        .get("text")
                        .asString())
                .doesNotContain("mine now");
        assertThat(a.api().get("/v1/questions/" + aQuestion).status()).isEqualTo(200);
        assertThat(a.api().get("/v1/threads/" + aThread).status()).isEqualTo(200);
        assertThat(other.get("/v1/threads").json().get("threads").findValuesAsString("id"))
                .doesNotContain(aThread.toString());
        // And A still reaches all of it (its document has no graph without an LLM: a different 404).
        assertThat(a.api()
                        .get("/v1/documents/" + aText + "/graph")
                        .json()
                        .get("type")
                        .asString())
                .endsWith("/no-graph");
        assertThat(a.api().get("/v1/documents/" + aConversation + "/turns").status())
                .isEqualTo(200);
        assertThat(a.api().get("/v1/questions/" + aQuestion + "/trace").status())
                .isEqualTo(200);
        // Its event stream too: the stream's async dispatch keeps the caller the request was let in as.
        List<Api.Event> events = a.api().events("/v1/questions/" + aQuestion + "/events", null, Duration.ofSeconds(60));
        assertThat(events).isNotEmpty();
        assertThat(events.getLast().name()).isEqualTo("end");
    }

    @Test
    void aDocumentListMixingTenantsIsRefusedAsAWhole() {
        UUID own = b.api()
                .ingest(aText("Tenant B keeps a ledger of ferry crossings.").build());
        Api.Response search = b.api().post("/v1/search", Map.of("documentIds", List.of(own, aText), "query", "ledger"));
        assertThat(search.status()).isEqualTo(404);
        assertThat(search.json().get("field").asString()).isEqualTo("documentIds");
        Api.Response ask = b.api()
                .post(
                        "/v1/questions",
                        Map.of(
                                "documentIds",
                                List.of(own, aText),
                                "question",
                                "What is kept?",
                                "strategy",
                                "extractive"));
        assertThat(ask.status()).isEqualTo(404);
    }

    @Test
    void identicalContentIsStoredSeparatelyAndSearchesNeverReturnTheOtherTenantsChunks() {
        // Same text as A's: deduplication is per tenant, so B gets a document of its own, not A's id.
        Api.Response posted = b.api()
                .post("/v1/documents", aText(SHARED_TEXT).titled("B's copy").build());
        assertThat(posted.status()).as(posted.body()).isEqualTo(202);
        UUID copy = UUID.fromString(posted.json().get("id").asString());
        assertThat(copy).isNotEqualTo(aText);
        b.api().awaitDocument(copy, "READY", Duration.ofMinutes(2));
        for (String mode : List.of("hybrid", "keyword", "vector")) {
            JsonNode hits = b.api()
                    .post(
                            "/v1/search",
                            Map.of(
                                    "documentIds",
                                    List.of(copy),
                                    "query",
                                    "green flash at dusk",
                                    "mode",
                                    mode,
                                    "k",
                                    20,
                                    "window",
                                    2))
                    .json()
                    .get("hits");
            assertThat(hits.size()).as(mode).isPositive();
            for (JsonNode hit : hits) {
                assertThat(hit.get("documentId").asString()).as(mode).isEqualTo(copy.toString());
            }
        }
        // B's listing holds B's documents only; A's holds its own plus the evaluation's.
        List<String> listed = new ArrayList<>();
        b.api()
                .get("/v1/documents?size=200")
                .json()
                .get("items")
                .forEach(d -> listed.add(d.get("id").asString()));
        assertThat(listed).contains(copy.toString()).doesNotContain(aText.toString(), aConversation.toString());
    }

    @Test
    void anEvaluationRunsAsItsTenantAndItsDocumentsStayThere() {
        List<String> aTitles = new ArrayList<>();
        a.api()
                .get("/v1/documents?size=200")
                .json()
                .get("items")
                .forEach(d -> aTitles.add(d.get("title").asString()));
        List<String> bTitles = new ArrayList<>();
        b.api()
                .get("/v1/documents?size=200")
                .json()
                .get("items")
                .forEach(d -> bTitles.add(d.get("title").asString()));
        // The run ingested its item's document through the service's own API, as tenant A.
        assertThat(aTitles).contains("eval-lens");
        assertThat(bTitles).doesNotContain("eval-lens");
    }

    @Test
    void usageReportsOnlyTheCallersCalls() {
        JsonNode mine = a.api().get("/v1/usage").json().get("total");
        JsonNode theirs = b.api().get("/v1/usage").json().get("total");
        assertThat(mine.get("promptTokens").asLong()).isEqualTo(700);
        assertThat(mine.get("calls").asLong()).isEqualTo(1);
        assertThat(theirs.get("calls").asLong()).isZero();
        assertThat(theirs.get("promptTokens").asLong()).isZero();
    }
}
