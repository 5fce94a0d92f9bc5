package io.lorekeeper.question;

import static io.lorekeeper.llm.FakeOpenAi.completion;
import static io.lorekeeper.llm.FakeOpenAi.tooManyRequests;
import static io.lorekeeper.support.TestDocuments.aConversation;
import static io.lorekeeper.support.TestDocuments.aText;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.lorekeeper.llm.FakeOpenAi;
import io.lorekeeper.llm.FakeOpenAiTest;
import io.lorekeeper.support.Api;
import tools.jackson.databind.JsonNode;

/**
 * Questions answered end to end through the real OpenAI client stack (Spring AI → openai-java →
 * HTTP) against a WireMock server speaking the chat-completions wire format.
 */
@FakeOpenAiTest
class AnsweringOverHttpTest {

    private static final String FIRE = "The fire was started by a lamp that Hector Munro had left burning in the loft.";

    @Autowired
    Api api;

    @Autowired
    JdbcClient jdbc;

    private final FakeOpenAi fake = FakeOpenAi.get();

    @Test
    void ragAnswersWithVerifiedCitationsAndRecordedUsage() {
        UUID doc = ingest("In the spring of 1902 the old mill of Kilmory burned down. " + FIRE + " Nobody was hurt.");
        fake.onTask("rag/answer", completion("""
                {"answer": "Hector Munro", "confidence": 0.9, "choice": null,
                 "evidence": [{"passage": 1, "quote": "a lamp that Hector Munro had left burning"},
                              {"passage": 1, "quote": "Hector Munro set the fire on purpose"}]}""", 812, 40));

        JsonNode answer =
                api.ask(Map.of("documentIds", List.of(doc), "question", "Who started the fire?", "strategy", "rag"));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("answer").asString()).isEqualTo("Hector Munro");
        assertThat(answer.get("citations")).hasSize(1);
        assertThat(answer.get("citations").get(0).get("quote").asString())
                .isEqualTo("a lamp that Hector Munro had left burning");
        FakeOpenAi.Request request = fake.requests().getLast();
        assertThat(request.authorization()).isEqualTo("Bearer " + FakeOpenAi.API_KEY);
        assertThat(request.hasJsonSchema()).isTrue();
        UUID id = UUID.fromString(answer.get("id").asString());
        Map<String, Object> usage = jdbc.sql(
                        "SELECT prompt_tokens, completion_tokens, outcome FROM llm_call WHERE question_id = ?")
                .param(id)
                .query()
                .singleRow();
        assertThat(usage)
                .containsEntry("prompt_tokens", 812L)
                .containsEntry("completion_tokens", 40L)
                .containsEntry("outcome", "ok");
        assertThat(events(answer, "run.citations").get("dropped").asInt()).isEqualTo(1);
        // the view carries what the endpoint reported, as GET /v1/questions/{id} does
        for (JsonNode view : List.of(answer, api.get("/v1/questions/" + id).json())) {
            JsonNode cost = view.get("usage");
            assertThat(cost.get("calls").asLong()).isEqualTo(1);
            assertThat(cost.get("promptTokens").asLong()).isEqualTo(812);
            assertThat(cost.get("completionTokens").asLong()).isEqualTo(40);
            assertThat(cost.get("cacheHits").asLong()).isZero();
            assertThat(cost.get("llmMs").asLong()).isNotNegative();
        }
    }

    @Test
    void askingTheSameQuestionAgainIsACacheHitThatBillsNoTokens() {
        UUID doc = ingest("The bell of Iona abbey was recast in 1931 by the foundry of John Taylor at Loughborough.");
        fake.onTask("rag/answer", completion("""
                {"answer": "John Taylor", "confidence": 0.8, "choice": null, "evidence": []}""", 640, 12));
        Map<String, Object> question =
                Map.of("documentIds", List.of(doc), "question", "Who recast the bell?", "strategy", "rag");

        JsonNode first = api.ask(question);
        JsonNode second = api.ask(question);

        assertThat(fake.requestCount())
                .as("the second answer call is served by the response cache")
                .isEqualTo(1);
        assertThat(second.get("answer").asString()).isEqualTo("John Taylor");
        assertThat(first.get("usage").get("cacheHits").asLong()).isZero();
        assertThat(first.get("usage").get("promptTokens").asLong()).isEqualTo(640);
        JsonNode cost = second.get("usage");
        assertThat(cost.get("calls").asLong()).isEqualTo(1);
        assertThat(cost.get("cacheHits").asLong()).isEqualTo(1);
        assertThat(cost.get("promptTokens").asLong()).isZero();
        assertThat(cost.get("completionTokens").asLong()).isZero();
    }

    @Test
    void aQuestionStillCompletesAfterThreeRateLimitsWithRetryAfter() {
        UUID doc = ingest("The lighthouse of Rubha Reidh was first lit in 1912 by keeper Angus Mackay.");
        fake.sequence(
                tooManyRequests(2),
                tooManyRequests(2),
                tooManyRequests(2),
                completion("{\"answer\": \"1912\", \"confidence\": 0.8, \"choice\": null, \"evidence\": []}"));

        long started = System.nanoTime();
        JsonNode answer = api.ask(Map.of(
                "documentIds",
                List.of(doc),
                "question",
                "When was it first lit?",
                "strategy",
                "rag",
                "waitSeconds",
                40));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("answer").asString()).isEqualTo("1912");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofSeconds(6));
        assertThat(fake.requestCount()).isEqualTo(4);
        UUID id = UUID.fromString(answer.get("id").asString());
        assertThat(jdbc.sql("SELECT outcome FROM llm_call WHERE question_id = ? ORDER BY id")
                        .param(id)
                        .query(String.class)
                        .list())
                .containsExactly("retry", "retry", "retry", "ok");
        assertThat(answer.get("usage").get("calls").asLong())
                .as("a retried call is one call")
                .isEqualTo(1);
    }

    @Test
    void aDeadEndpointFailsTheQuestionWithAClearReasonInsteadOfHanging() {
        UUID doc = ingest("The ferry to Coll leaves Oban at seven every morning except Sunday.");
        fake.down();

        long started = System.nanoTime();
        Api.Response asked = api.post(
                "/v1/questions",
                Map.of("documentIds", List.of(doc), "question", "When does the ferry leave?", "strategy", "rag"));
        JsonNode answer =
                api.awaitQuestion(UUID.fromString(asked.json().get("id").asString()), Duration.ofSeconds(60));

        assertThat(answer.get("status").asString()).isEqualTo("FAILED");
        assertThat(answer.get("failureReason").asString())
                .contains("model endpoint")
                .contains("connection");
        assertThat(answer.get("failureReason").asString()).doesNotContain(FakeOpenAi.API_KEY);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(60));
    }

    @Test
    void gamAnswersOverAConversationWithVerifiedCitations() {
        fake.onTask(
                "gam/memo", completion("{\"memo\": \"Caroline tells Melanie she adopted a puppy called Biscuit.\"}"));
        fake.onTask("gam/page-header", completion("{\"header\": \"Caroline and Melanie catch up in July 2023.\"}"));
        fake.onTask("mindgraph/build", completion("{\"operations\": []}"));
        UUID chat = api.ingest(aConversation()
                .session(
                        "2:00 pm on 3 July, 2023",
                        "Caroline",
                        "We adopted a puppy named Biscuit last weekend!",
                        "Melanie",
                        "Biscuit is such a cute name.")
                .build());
        fake.onTask("gam/plan", completion("""
                {"informationNeeds": ["the puppy's name"], "keywordQueries": ["puppy named"], "vectorQueries": ["Caroline's new dog"],
                 "pages": [{"doc": 1, "page": 0}]}"""));
        fake.onTask("gam/integrate", completion("""
                {"summary": "Caroline adopted a puppy named Biscuit.", "facts": [{"fact": "The puppy is Biscuit", "sources": [{"doc": 1, "page": 0}]}]}"""));
        fake.onTask("gam/reflect", completion("{\"enough\": true, \"missing\": null, \"followUps\": []}"));
        fake.onTask("gam/answer", completion("""
                {"answer": "Biscuit", "confidence": 0.9, "choice": null, "evidence": [{"excerpt": 1, "quote": "a puppy named Biscuit"}]}"""));

        // snippets: the answerer quotes an excerpt, so the citation is its quote
        JsonNode answer = api.ask(Map.of(
                "documentIds",
                List.of(chat),
                "question",
                "What is Caroline's puppy called?",
                "strategy",
                "gam",
                "options",
                Map.of("output", "snippets")));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("answer").asString()).isEqualTo("Biscuit");
        JsonNode citation = answer.get("citations").get(0);
        assertThat(citation.get("quote").asString()).isEqualTo("a puppy named Biscuit");
        assertThat(citation.get("turnId").asString()).isEqualTo("D1:1");
        UUID id = UUID.fromString(answer.get("id").asString());
        assertThat(jdbc.sql("SELECT template FROM llm_call WHERE question_id = ? AND outcome = 'ok' ORDER BY id")
                        .param(id)
                        .query(String.class)
                        .list())
                .containsExactly("gam/plan", "gam/integrate", "gam/reflect", "gam/answer");
    }

    private UUID ingest(String text) {
        fake.onTask("gam/memo", completion("{\"memo\": \"A note about the text.\"}"));
        fake.onTask("gam/page-header", completion("{\"header\": \"An excerpt of a local history.\"}"));
        fake.onTask("mindgraph/build", completion("{\"operations\": []}"));
        UUID id = api.ingest(aText(text).build());
        fake.reset();
        return id;
    }

    private JsonNode events(JsonNode question, String type) {
        for (JsonNode event : api.get("/v1/questions/" + question.get("id").asString() + "/trace")
                .json()
                .get("events")) {
            if (event.get("type").asString().equals(type)) {
                return event.get("payload");
            }
        }
        throw new AssertionError("no " + type + " event");
    }
}
