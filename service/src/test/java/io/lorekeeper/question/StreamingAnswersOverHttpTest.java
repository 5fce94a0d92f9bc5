package io.lorekeeper.question;

import static io.lorekeeper.llm.FakeOpenAi.completion;
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
 * Answers streamed as the model writes them: the real client stack asks the stand-in to stream (OpenAI's
 * {@code chat.completion.chunk} frames), and the question's event stream carries {@code answer.delta}
 * events while the answer is written, then the checked answer.
 */
@FakeOpenAiTest
class StreamingAnswersOverHttpTest {

    private static final String FIRE = "The fire was started by a lamp that Hector Munro had left burning in the loft.";
    private static final String RAG_ANSWER =
            "The fire was started by Hector Munro, who had left a lamp burning in the loft of the old mill.";

    @Autowired
    Api api;

    @Autowired
    JdbcClient jdbc;

    private final FakeOpenAi fake = FakeOpenAi.get();

    @Test
    void aRagAnswerStreamsAsDeltasBeforeTheCheckedAnswer() {
        UUID doc = ingest("In the spring of 1902 the old mill of Kilmory burned down. " + FIRE + " Nobody was hurt.");
        fake.onTask("rag/answer", completion("""
                {"answer": "%s", "confidence": 0.9, "choice": null,
                 "evidence": [{"passage": 1, "quote": "a lamp that Hector Munro had left burning"},
                              {"passage": 1, "quote": "Hector Munro set the fire on purpose"}]}""".formatted(RAG_ANSWER), 812, 40).streamedOver(Duration.ofMillis(2500)));

        Streamed streamed =
                askAndFollow(Map.of("documentIds", List.of(doc), "question", "Who started the fire?"), "rag");

        assertThat(streamed.deltas())
                .as("several deltas while the answer is written")
                .hasSizeGreaterThanOrEqualTo(3);
        assertThat(streamed.text()).isEqualTo(RAG_ANSWER);
        assertThat(streamed.firstDeltaLeadMs())
                .as("the first text arrives well before the answer is final")
                .isGreaterThan(800);
        JsonNode last = streamed.finalEvent();
        assertThat(last.get("answer").asString()).isEqualTo(RAG_ANSWER);
        assertThat(last.get("citations")).hasSize(1);
        assertThat(last.get("citations").get(0).get("quote").asString())
                .isEqualTo("a lamp that Hector Munro had left burning");
        assertThat(last.get("draftChanged").asBoolean())
                .as("the check dropped an invented quote")
                .isTrue();
        assertThat(last.get("change").asString()).contains("1 citation was dropped");
        JsonNode answer = streamed.answer();
        assertThat(answer.get("status").asString()).isEqualTo("DONE");
        assertThat(answer.get("answer").asString()).isEqualTo(RAG_ANSWER);
        assertThat(answer.get("citations")).hasSize(1);
        FakeOpenAi.Request request = fake.requests().getLast();
        assertThat(request.body().path("stream").asBoolean()).isTrue();
        assertThat(request.body().path("stream_options").path("include_usage").asBoolean())
                .isTrue();
        // a streamed call is counted like a plain one: the usage of the stream's last chunk
        Map<String, Object> usage = jdbc.sql(
                        "SELECT prompt_tokens, completion_tokens, outcome FROM llm_call WHERE question_id = ?")
                .param(streamed.id())
                .query()
                .singleRow();
        assertThat(usage)
                .containsEntry("prompt_tokens", 812L)
                .containsEntry("completion_tokens", 40L)
                .containsEntry("outcome", "ok");
        assertThat(answer.get("usage").get("promptTokens").asLong()).isEqualTo(812);
        assertThat(answer.get("usage").get("calls").asLong()).isEqualTo(1);
    }

    @Test
    void aGamAnswerStreamsFromItsAnswererAfterTheResearch() {
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
                        "Biscuit is such a cute name.",
                        "Caroline",
                        "(Archive record " + UUID.randomUUID() + ".)")
                .build());
        fake.reset();
        fake.onTask("gam/plan", completion("""
                {"informationNeeds": ["the puppy's name"], "keywordQueries": ["puppy named"], "vectorQueries": ["Caroline's new dog"],
                 "pages": [{"doc": 1, "page": 0}]}"""));
        fake.onTask("gam/integrate", completion("""
                {"summary": "Caroline adopted a puppy named Biscuit.", "facts": [{"fact": "The puppy is Biscuit", "sources": [{"doc": 1, "page": 0}]}]}"""));
        fake.onTask("gam/reflect", completion("{\"enough\": true, \"missing\": null, \"followUps\": []}"));
        String written = "Caroline's puppy, adopted the weekend before the third of July, is called \\\"Biscuit\\\".";
        String text = "Caroline's puppy, adopted the weekend before the third of July, is called \"Biscuit\".";
        fake.onTask("gam/answer", completion("""
                {"answer": "%s", "confidence": 0.9, "choice": null, "evidence": [{"excerpt": 1, "quote": "a puppy named Biscuit"}]}""".formatted(written)).streamedOver(Duration.ofMillis(2500)));

        Streamed streamed = askAndFollow(
                Map.of(
                        "documentIds",
                        List.of(chat),
                        "question",
                        "What is Caroline's puppy called?",
                        "options",
                        Map.of("output", "snippets")),
                "gam");

        assertThat(streamed.deltas()).hasSizeGreaterThanOrEqualTo(3);
        assertThat(streamed.text()).as("escapes decoded as the JSON holds them").isEqualTo(text);
        assertThat(streamed.firstDeltaLeadMs()).isGreaterThan(800);
        JsonNode last = streamed.finalEvent();
        assertThat(last.get("answer").asString()).isEqualTo(text);
        assertThat(last.get("draftChanged").asBoolean()).isFalse();
        assertThat(last.get("citations").get(0).get("quote").asString()).isEqualTo("a puppy named Biscuit");
        assertThat(streamed.answer().get("answer").asString()).isEqualTo(text);
        // only the answerer streams: the research calls are asked whole
        assertThat(fake.requests().stream()
                        .filter(r -> r.body().path("stream").asBoolean())
                        .count())
                .isEqualTo(1);
    }

    @Test
    void anEndpointThatDoesNotStreamAnswersAsBefore() {
        UUID doc = ingest("The lighthouse of Rubha Reidh was first lit in 1912 by keeper Angus Mackay.");
        fake.onTask("rag/answer", completion("""
                {"answer": "In 1912", "confidence": 0.8, "choice": null,
                 "evidence": [{"passage": 1, "quote": "first lit in 1912"}]}""").notStreamed());

        Streamed first = askAndFollow(
                Map.of("documentIds", List.of(doc), "question", "When was the lighthouse first lit?"), "rag");
        Streamed second =
                askAndFollow(Map.of("documentIds", List.of(doc), "question", "Who first lit the lighthouse?"), "rag");

        for (Streamed asked : List.of(first, second)) {
            assertThat(asked.answer().get("status").asString()).isEqualTo("DONE");
            assertThat(asked.answer().get("answer").asString()).isEqualTo("In 1912");
            assertThat(asked.answer().get("citations")).hasSize(1);
            assertThat(asked.deltas()).isEmpty();
            assertThat(asked.events().stream().map(Api.Event::name)).doesNotContain("answer.final");
        }
        // the first question found that the endpoint does not stream; the second asked whole at once
        assertThat(fake.requests().stream().map(r -> r.body().path("stream").asBoolean()))
                .containsExactly(true, false, false);
    }

    @Test
    void anEndpointThatRefusesToStreamIsAskedWhole() {
        UUID doc = ingest("The lighthouse of Stoer Head was first lit in 1870 by keeper Angus Mackay.");
        fake.refusesToStream(400);
        fake.onTask("rag/answer", completion("""
                {"answer": "Angus Mackay", "confidence": 0.8, "choice": null,
                 "evidence": [{"passage": 1, "quote": "keeper Angus Mackay"}]}"""));

        Streamed asked =
                askAndFollow(Map.of("documentIds", List.of(doc), "question", "Who first lit the lighthouse?"), "rag");

        assertThat(asked.answer().get("status").asString())
                .as(asked.answer().toString())
                .isEqualTo("DONE");
        assertThat(asked.answer().get("answer").asString()).isEqualTo("Angus Mackay");
        assertThat(asked.deltas()).isEmpty();
        assertThat(fake.requests().stream().map(r -> r.body().path("stream").asBoolean()))
                .containsExactly(true, false);
        assertThat(asked.answer().get("usage").get("calls").asLong()).isEqualTo(1);
    }

    @Test
    void aStreamCutMidwayEndsInTheLastResortAnswerNotAFailure() {
        UUID doc = ingest("In the spring of 1902 the old mill of Kilmory burned down. " + FIRE + " Nobody was hurt.");
        fake.onTask("rag/answer", completion("""
                {"answer": "%s", "confidence": 0.9, "choice": null,
                 "evidence": [{"passage": 1, "quote": "a lamp that Hector Munro had left burning"}]}""".formatted(RAG_ANSWER)).streamCut());
        fake.onTask("last-resort/answer", completion("Hector Munro, with a lamp left burning in the loft."));

        Streamed streamed =
                askAndFollow(Map.of("documentIds", List.of(doc), "question", "Who started the fire?"), "rag");

        JsonNode answer = streamed.answer();
        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("answer").asString()).isEqualTo("Hector Munro, with a lamp left burning in the loft.");
        assertThat(answer.get("confidence").asDouble()).isEqualTo(0.2);
        assertThat(streamed.text()).as("the draft that arrived").isNotEmpty().isNotEqualTo(RAG_ANSWER);
        assertThat(RAG_ANSWER).startsWith(streamed.text());
        JsonNode last = streamed.finalEvent();
        assertThat(last.get("draftChanged").asBoolean()).isTrue();
        assertThat(last.get("change").asString()).contains("cut");
        assertThat(streamed.events().stream().map(Api.Event::name)).contains("step.last-resort");
        assertThat(jdbc.sql("SELECT template || ' ' || outcome FROM llm_call WHERE question_id = ? ORDER BY id")
                        .param(streamed.id())
                        .query(String.class)
                        .list())
                .containsExactly("rag/answer cut", "last-resort/answer ok");
        Map<String, Object> cut = jdbc.sql(
                        "SELECT prompt_tokens, completion_tokens FROM llm_call WHERE question_id = ? AND outcome = 'cut'")
                .param(streamed.id())
                .query()
                .singleRow();
        assertThat((Long) cut.get("prompt_tokens"))
                .as("estimated: a cut stream reports no usage")
                .isPositive();
        assertThat((Long) cut.get("completion_tokens")).isPositive();
        // the last resort was asked whole: this endpoint's streams break
        assertThat(fake.requests().getLast().body().path("stream").asBoolean()).isFalse();
    }

    /** A question's events as its client saw them, and its answer once it finished. */
    private record Streamed(UUID id, List<Api.Event> events, JsonNode answer) {

        List<Api.Event> deltas() {
            return events.stream().filter(e -> e.name().equals("answer.delta")).toList();
        }

        String text() {
            int last = deltas().stream()
                    .mapToInt(e -> e.json().get("payload").get("stream").asInt())
                    .max()
                    .orElse(0);
            StringBuilder text = new StringBuilder();
            deltas().stream()
                    .filter(e -> e.json().get("payload").get("stream").asInt() == last)
                    .forEach(
                            e -> text.append(e.json().get("payload").get("text").asString()));
            return text.toString();
        }

        JsonNode finalEvent() {
            List<Api.Event> finals =
                    events.stream().filter(e -> e.name().equals("answer.final")).toList();
            assertThat(finals).as("one answer.final event").hasSize(1);
            List<String> names = events.stream().map(Api.Event::name).toList();
            assertThat(names.lastIndexOf("answer.delta"))
                    .as("every delta comes before the final answer")
                    .isLessThan(names.indexOf("answer.final"));
            return finals.getFirst().json().get("payload");
        }

        /** How long before the final answer's event the first delta arrived. */
        long firstDeltaLeadMs() {
            long first = deltas().getFirst().receivedNanos();
            long done = events.stream()
                    .filter(e -> e.name().equals("answer.final"))
                    .findFirst()
                    .orElseThrow()
                    .receivedNanos();
            return (done - first) / 1_000_000;
        }
    }

    private Streamed askAndFollow(Map<String, Object> question, String strategy) {
        Map<String, Object> body = new java.util.LinkedHashMap<>(question);
        body.put("strategy", strategy);
        body.put("waitSeconds", 0);
        Api.Response asked = api.post("/v1/questions", body);
        assertThat(asked.status()).as(asked.body()).isIn(200, 202);
        UUID id = UUID.fromString(asked.json().get("id").asString());
        List<Api.Event> events = api.events("/v1/questions/" + id + "/events", null, Duration.ofSeconds(90));
        return new Streamed(id, events, api.awaitQuestion(id, Duration.ofSeconds(30)));
    }

    private UUID ingest(String text) {
        fake.onTask("gam/memo", completion("{\"memo\": \"A note about the text.\"}"));
        fake.onTask("gam/page-header", completion("{\"header\": \"An excerpt of a local history.\"}"));
        fake.onTask("mindgraph/build", completion("{\"operations\": []}"));
        // a text of its own: the response cache is on in this context, and another test asking the same
        // question of the same text would be answered from it, whole, with that test's reply
        UUID id = api.ingest(
                aText(text + "\n\nArchive record " + UUID.randomUUID() + ".").build());
        fake.reset();
        return id;
    }
}
