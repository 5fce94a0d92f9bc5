package io.lorekeeper.question;

import static io.lorekeeper.support.TestDocuments.aConversation;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.lorekeeper.llm.ScriptedChatModel;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.Api.Response;
import io.lorekeeper.support.LlmIntegrationTest;
import tools.jackson.databind.JsonNode;

/** Questions and the memories their strategies declare: waiting, refusal, running degraded, and the listing. */
@LlmIntegrationTest
class MemoryReadinessTest {

    @Autowired
    Api api;

    @Autowired
    ScriptedChatModel model;

    @Autowired
    org.springframework.jdbc.core.simple.JdbcClient jdbc;

    @BeforeEach
    void scriptResearch() {
        model.reset();
        scriptGamResearch(model);
    }

    /** GAM's research about the puppy, answered at once: for tests that are about what happens before it. */
    static void scriptGamResearch(ScriptedChatModel model) {
        model.on("gam/plan").reply("""
                {"informationNeeds": ["the dog"], "keywordQueries": ["puppy"], "vectorQueries": [], "pages": []}""");
        model.on("gam/integrate").reply("{\"summary\": \"Caroline adopted a puppy named Biscuit.\", \"facts\": []}");
        model.on("gam/reflect").reply("{\"enough\": true, \"followUps\": []}");
        model.on("gam/answer").reply("{\"answer\": \"Biscuit\", \"evidence\": [], \"confidence\": 0.7}");
    }

    private static Map<String, Object> chat(String tag) {
        return aConversation()
                .session(
                        "2:00 pm on 3 July, 2023",
                        "Caroline",
                        tag + ": we adopted a puppy named Biscuit!",
                        "Melanie",
                        "Lovely.")
                .session("9:00 am on 5 July, 2023", "Caroline", "Biscuit chewed my " + tag + " shoes.")
                .build();
    }

    @Test
    void aQuestionWaitsWhileAMemoryItNeedsIsBeingBuiltAndSaysWhichThenRuns() {
        model.on("gam/memo").delay(Duration.ofMillis(1500)).reply("{\"memo\": \"Caroline adopted Biscuit.\"}");
        model.on("gam/page-header").reply("{\"header\": \"Caroline and Melanie.\"}");
        UUID doc = UUID.fromString(
                api.post("/v1/documents", chat("Wren")).json().get("id").asString());
        api.awaitReadyBeforeItsMemories(doc, Duration.ofSeconds(60));

        Response asked = api.post(
                "/v1/questions",
                Map.of(
                        "documentIds",
                        List.of(doc),
                        "question",
                        "What is the puppy called?",
                        "strategy",
                        "gam",
                        "waitSeconds",
                        0));
        assertThat(asked.status()).as(asked.body()).isEqualTo(202);
        UUID question = UUID.fromString(asked.json().get("id").asString());
        JsonNode waiting = awaitWaiting(question);
        assertThat(waiting.get("status").asString()).isEqualTo("QUEUED");
        assertThat(waiting.get("waitingFor").get(0).get("stage").asString()).isEqualTo("memos");
        assertThat(waiting.get("waitingFor").get(0).get("documentId").asString())
                .isEqualTo(doc.toString());

        JsonNode done = api.awaitQuestion(question, Duration.ofSeconds(60));
        assertThat(done.get("status").asString()).as(done.toString()).isEqualTo("DONE");
        assertThat(done.get("waitingFor")).isNull();
        assertThat(model.calls("gam/plan").getFirst().user())
                .as("it ran after the memos were written")
                .contains("Caroline adopted Biscuit.");
        List<String> types = traceTypes(question);
        assertThat(types).containsSubsequence("run.waiting", "run.status");
        // A loaded machine may see the memory queued and then running: one event per state, not one per poll.
        List<JsonNode> waits = api.traceEvents(done, "run.waiting");
        assertThat(waits).hasSizeBetween(1, 2);
        for (int i = 1; i < waits.size(); i++) {
            assertThat(waits.get(i)).as("a repeated state").isNotEqualTo(waits.get(i - 1));
        }
    }

    @Test
    void aQuestionKeepsWaitingWhileAMemoryItNeedsFailedWithARetryScheduledAndFailsOnlyWhenNoRetryIsLeft() {
        model.on("gam/memo")
                .delay(Duration.ofMillis(1500))
                .failOnce(new IllegalStateException("the memorizer endpoint is unplugged"))
                .reply("{\"memo\": \"Caroline adopted Biscuit.\"}");
        model.on("gam/page-header").reply("{\"header\": \"Caroline and Melanie.\"}");
        UUID doc = UUID.fromString(
                api.post("/v1/documents", chat("Snipe")).json().get("id").asString());
        api.awaitReadyBeforeItsMemories(doc, Duration.ofSeconds(60));
        Map<String, Object> ask = Map.of(
                "documentIds",
                List.of(doc),
                "question",
                "What is the puppy called?",
                "strategy",
                "gam",
                "waitSeconds",
                0);

        Response asked = api.post("/v1/questions", ask);
        assertThat(asked.status()).as(asked.body()).isEqualTo(202);
        UUID question = UUID.fromString(asked.json().get("id").asString());
        JsonNode retrying = awaitWaitingFor(question, "FAILED");

        JsonNode memo = retrying.get("waitingFor").get(0);
        assertThat(memo.get("stage").asString()).isEqualTo("memos");
        assertThat(memo.get("reason").asString()).contains("the memorizer endpoint is unplugged");
        assertThat(memo.get("retryAt")).as("the retry it waits for").isNotNull();
        assertThat(memo.get("why").asString()).contains("tried again at");
        sleep(Duration.ofSeconds(7)); // two polls of the waiting question (every 3 s)
        JsonNode still = api.get("/v1/questions/" + question).json();
        assertThat(still.get("status").asString())
                .as("a failed memory with a retry scheduled keeps the question waiting: " + still)
                .isEqualTo("QUEUED");
        assertThat(traceTypes(question)).contains("run.waiting").doesNotContain("run.status");

        // the retry (brought forward: the scheduled one is 30 s away) builds the memory; the question then runs
        assertThat(api.post("/v1/documents/" + doc + "/reindex", Map.of()).status())
                .isEqualTo(202);
        JsonNode done = api.awaitQuestion(question, Duration.ofSeconds(60));
        assertThat(done.get("status").asString()).as(done.toString()).isEqualTo("DONE");
        assertThat(done.get("answer").asString()).isEqualTo("Biscuit");
        assertThat(model.calls("gam/plan").getLast().user())
                .as("it ran once the memos were written")
                .contains("Caroline adopted Biscuit.");

        // a memory that failed with no attempt left ends the wait
        model.on("gam/memo")
                .delay(Duration.ofMillis(1500))
                .failOnce(new IllegalStateException("the memorizer endpoint is unplugged again"));
        UUID second = UUID.fromString(
                api.post("/v1/documents", chat("Dunlin")).json().get("id").asString());
        api.awaitReadyBeforeItsMemories(second, Duration.ofSeconds(60));
        Response waiting = api.post(
                "/v1/questions",
                Map.of(
                        "documentIds",
                        List.of(second),
                        "question",
                        "What is the puppy called?",
                        "strategy",
                        "gam",
                        "waitSeconds",
                        0));
        assertThat(waiting.status()).as(waiting.body()).isEqualTo(202);
        UUID secondQuestion = UUID.fromString(waiting.json().get("id").asString());
        awaitWaitingFor(secondQuestion, "FAILED");
        jdbc.sql("UPDATE ingestion_stage SET retry_at = NULL WHERE document_id = ? AND stage = 'memos'")
                .param(second)
                .update(); // as when its last attempt failed
        JsonNode failed = api.awaitQuestion(secondQuestion, Duration.ofSeconds(60));
        assertThat(failed.get("status").asString()).as(failed.toString()).isEqualTo("FAILED");
        assertThat(failed.get("failureReason").asString())
                .contains("memos")
                .contains("the memorizer endpoint is unplugged again");
    }

    @Test
    void aMissingOptionalMemoryDegradesTheAnswerAndSaysSo() {
        model.on("gam/memo").reply("{\"memo\": \"Caroline adopted Biscuit.\"}");
        model.on("gam/page-header").fail(new IllegalStateException("header model unavailable"));
        UUID doc = api.ingest(chat("Heron"));

        JsonNode answer = api.ask(
                Map.of("documentIds", List.of(doc), "question", "What is the puppy called?", "strategy", "gam"));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        JsonNode degraded = answer.get("degraded").get(0);
        assertThat(degraded.get("stage").asString()).isEqualTo("page-headers");
        assertThat(degraded.get("state").asString()).isEqualTo("FAILED");
        assertThat(degraded.get("reason").asString()).contains("header model unavailable");
        assertThat(traceTypes(UUID.fromString(answer.get("id").asString()))).contains("run.degraded");
    }

    @Test
    void aNeededMemoryThatWasSkippedIsRefusedWithItsReasonAndHowToBuildIt() {
        Map<String, Object> body = new java.util.HashMap<>(chat("Teal"));
        body.put("profile", "retrieval-only");
        UUID doc = api.ingest(body);

        Response refused = api.post(
                "/v1/questions", Map.of("documentIds", List.of(doc), "question", "Which puppy?", "strategy", "gam"));

        assertThat(refused.status()).as(refused.body()).isEqualTo(409);
        assertThat(refused.json().get("type").asString()).endsWith("/memory-not-ready");
        assertThat(refused.json().get("stage").asString()).isEqualTo("memos");
        assertThat(refused.json().get("state").asString()).isEqualTo("SKIPPED");
        assertThat(refused.json().get("reason").asString()).contains("retrieval-only");
        assertThat(refused.json().get("howToBuild").asString()).contains("\"stages\": [\"memos\"]");
        Response extractive =
                api.post("/v1/questions", Map.of("documentIds", List.of(doc), "question", "Which puppy?"));
        assertThat(extractive.status())
                .as("a strategy that needs no memory still answers")
                .isIn(200, 202);
    }

    @Test
    void strategiesListTheMemoriesTheyNeedAndTheEndpoint() {
        JsonNode strategies = api.get("/v1/strategies").json();

        JsonNode gam = find(strategies, "gam");
        assertThat(gam.get("memoryStages")).extracting(JsonNode::asString).containsExactly("memos");
        assertThat(gam.get("optionalMemories")).extracting(JsonNode::asString).containsExactly("page-headers");
        assertThat(gam.get("llm").get("configured").asBoolean()).isTrue();
        assertThat(find(strategies, "extractive").get("llm")).isNull();
        assertThat(find(strategies, "extractive").get("memoryStages")).isEmpty();
    }

    private static JsonNode find(JsonNode strategies, String name) {
        for (JsonNode s : strategies) {
            if (s.get("name").asString().equals(name)) {
                return s;
            }
        }
        throw new AssertionError("no strategy " + name);
    }

    /** Waits until the question waits for a memory in the given state. */
    private JsonNode awaitWaitingFor(UUID question, String state) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            JsonNode view = api.get("/v1/questions/" + question).json();
            assertThat(view.get("status").asString())
                    .as("the question stopped waiting: " + view)
                    .isEqualTo("QUEUED");
            JsonNode waitingFor = view.get("waitingFor");
            if (waitingFor != null && waitingFor.get(0).get("state").asString().equals(state)) {
                return view;
            }
            assertThat(System.nanoTime())
                    .as("question " + question + " never waited for a " + state + " memory: " + view)
                    .isLessThan(deadline);
            sleep();
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private JsonNode awaitWaiting(UUID question) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        JsonNode view;
        while ((view = api.get("/v1/questions/" + question).json()).get("waitingFor") == null) {
            assertThat(view.get("status").asString())
                    .as("the question ran before its memory was built: " + view)
                    .isEqualTo("QUEUED");
            assertThat(System.nanoTime())
                    .as("question " + question + " never said what it waits for")
                    .isLessThan(deadline);
            sleep();
        }
        return view;
    }

    private List<String> traceTypes(UUID question) {
        return api.get("/v1/questions/" + question + "/trace")
                .json()
                .get("events")
                .valueStream()
                .map(e -> e.get("type").asString())
                .toList();
    }

    private static void sleep() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
