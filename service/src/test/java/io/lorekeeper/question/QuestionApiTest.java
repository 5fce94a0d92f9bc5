package io.lorekeeper.question;

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

import io.lorekeeper.strategy.Citation;
import io.lorekeeper.strategy.StrategyResult;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.Api.Response;
import io.lorekeeper.support.IntegrationTest;
import io.lorekeeper.support.TestStrategies.ScriptedStrategy;
import tools.jackson.databind.JsonNode;

@IntegrationTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class QuestionApiTest {

    private static final String CHRONICLE = """
            The village of Ardnacross stood at the mouth of a cold river. Its mill had been built by the Campbell family
            long before anyone living could remember.

            In the spring of 1902 the old mill burned down. The fire was started by a lamp that Hector Munro, the miller's
            apprentice, had left burning in the loft. Nobody was hurt, but the village went without flour for a month.

            The new mill was finished in 1904. It was built of grey stone and had a slate roof, and the miller said it
            could grind twice as much grain as the old one.
            """;

    @Autowired
    Api api;

    @Autowired
    ScriptedStrategy scripted;

    UUID chronicle;
    UUID chat;

    @BeforeAll
    void ingest() {
        chronicle = api.ingest(aText(CHRONICLE).titled("Ardnacross").build());
        chat = api.ingest(aConversation()
                .session(
                        "1:56 pm on 8 May, 2023",
                        "Caroline",
                        "I went to an LGBTQ support group yesterday and it was so powerful.",
                        "Melanie",
                        "That's great! I painted a sunrise over the lake last week.")
                .session(
                        "8:10 pm on 20 June, 2023",
                        "Caroline",
                        "I'm researching adoption agencies because I want to give kids a home.")
                .build());
    }

    @Test
    void extractiveAnswersWithVerbatimCitations() {
        JsonNode answer = api.ask(Map.of(
                "documentIds",
                List.of(chronicle),
                "question",
                "Who started the fire at the old mill?",
                "strategy",
                "extractive"));

        assertThat(answer.get("status").asString()).isEqualTo("DONE");
        assertThat(answer.get("mode").asString()).isEqualTo("extractive");
        assertThat(answer.get("answer").asString()).contains("Hector Munro");
        assertThat(answer.get("confidence").asDouble()).isBetween(0.0, 1.0);
        assertThat(answer.get("citations")).isNotEmpty();
        for (JsonNode citation : answer.get("citations")) {
            assertThat(citation.get("quote").asString()).isEqualTo(source(citation));
        }
        assertThat(answer.get("timings").get("runMs").asLong()).isNotNegative();
    }

    @Test
    void multipleChoicePicksTheBestSupportedChoice() {
        JsonNode answer = api.ask(Map.of(
                "documentIds",
                List.of(chronicle),
                "question",
                "What was the new mill built of?",
                "choices",
                List.of("red brick", "grey stone", "oak timber", "iron sheets")));

        assertThat(answer.get("choiceIndex").asInt()).isEqualTo(1);
        assertThat(answer.get("answer").asString()).isEqualTo("grey stone");
        assertThat(answer.get("citations").get(0).get("quote").asString()).contains("grey stone");
    }

    @Test
    void conversationAnswersNameTheTurnAndDateTimeQuestions() {
        JsonNode answer = api.ask(
                Map.of("documentIds", List.of(chat), "question", "When did Caroline go to the LGBTQ support group?"));

        // "yesterday", said on 8 May 2023: the answer is the date, the citations the turn and its session's date line
        assertThat(answer.get("answer").asString()).isEqualTo("7 May 2023");
        List<String> turns = new ArrayList<>();
        List<String> quotes = new ArrayList<>();
        answer.get("citations").forEach(c -> {
            assertThat(c.get("quote").asString()).isEqualTo(source(c));
            quotes.add(c.get("quote").asString());
            if (c.has("turnId")) {
                turns.add(c.get("turnId").asString());
            }
        });
        assertThat(turns).contains("D1:1");
        assertThat(quotes.getFirst()).contains("support group yesterday");
        assertThat(quotes)
                .anySatisfy(q -> assertThat(q).startsWith("[Session 1").contains("8 May, 2023"));
    }

    @Test
    void theTraceRecordsEveryStep() {
        JsonNode answer =
                api.ask(Map.of("documentIds", List.of(chronicle), "question", "When was the new mill finished?"));
        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("answer").asString()).as(answer.toString()).contains("1904");
        assertThat(answer.get("citations")).as(answer.toString()).isNotEmpty();
        assertThat(answer.get("citations").get(0).get("quote").asString()).contains("1904");

        JsonNode trace = api.get("/v1/questions/" + answer.get("id").asString() + "/trace")
                .json();

        List<String> types = new ArrayList<>();
        trace.get("events").forEach(e -> types.add(e.get("type").asString()));
        assertThat(types)
                .containsSubsequence(
                        "run.status",
                        "extractive.retrieve",
                        "extractive.bridge",
                        "extractive.sentences",
                        "extractive.answer",
                        "run.citations",
                        "run.status");
        JsonNode sentences =
                trace.get("events").get(types.indexOf("extractive.sentences")).get("payload");
        assertThat(sentences.get("answerType").asString()).isEqualTo("time");
        assertThat(sentences.get("top")).isNotEmpty();
    }

    @Test
    void progressStreamsAsServerSentEvents() {
        Response asked = api.post(
                "/v1/questions",
                Map.of("documentIds", List.of(chronicle), "question", "What did the miller say about the new mill?"));
        assertThat(asked.status()).isEqualTo(202);
        assertThat(asked.header("Location"))
                .isEqualTo("/v1/questions/" + asked.json().get("id").asString());

        List<Api.Event> events = api.events(asked.header("Location") + "/events", null, Duration.ofSeconds(60));

        List<String> eventNames = events.stream().map(Api.Event::name).toList();
        assertThat(eventNames).containsSubsequence("run.status", "extractive.retrieve", "extractive.answer", "end");
        assertThat(eventNames).last().isEqualTo("end");
        // every trace event once, in order, its id its sequence number: what a reconnecting client resumes from
        JsonNode trace = api.get(asked.header("Location") + "/trace").json().get("events");
        List<String> traceSeqs = new ArrayList<>();
        trace.forEach(e -> traceSeqs.add(e.get("seq").asString()));
        assertThat(events.subList(0, events.size() - 1))
                .extracting(Api.Event::id)
                .containsExactlyElementsOf(traceSeqs);
    }

    @Test
    void aReconnectingClientResumesAfterItsLastEventId() {
        JsonNode answer =
                api.ask(Map.of("documentIds", List.of(chronicle), "question", "When did the old mill burn down?"));
        String location = "/v1/questions/" + answer.get("id").asString();
        List<Api.Event> all = api.events(location + "/events", null, Duration.ofSeconds(30));
        assertThat(all.size())
                .as("a finished question replays its whole trace, then end")
                .isGreaterThan(4);

        String lastSeen = all.get(2).id();
        List<Api.Event> resumed = api.events(location + "/events", lastSeen, Duration.ofSeconds(30));

        assertThat(resumed).isEqualTo(all.subList(3, all.size()));
        assertThat(resumed.getFirst().id()).isEqualTo(String.valueOf(Integer.parseInt(lastSeen) + 1));
        assertThat(resumed.getLast().name()).isEqualTo("end");
        assertThat(resumed.getLast().data()).contains("DONE");
        // a header that is not an event id is ignored: the client gets everything
        assertThat(api.events(location + "/events", "not-a-number", Duration.ofSeconds(30)))
                .isEqualTo(all);
    }

    @Test
    void citationsThatAreNotVerbatimSourceTextAreDropped() {
        int start = CHRONICLE.indexOf("In the spring of 1902");
        String real = "In the spring of 1902 the old mill burned down.";
        scripted.script(context -> new StrategyResult(
                "scripted",
                StrategyResult.GENERATED,
                List.of(
                        Citation.of(chronicle, start, start + real.length(), real),
                        Citation.of(
                                chronicle,
                                start,
                                start + real.length(),
                                "In  the spring\nof 1902 the old mill burned down."),
                        Citation.of(
                                chronicle,
                                start,
                                start + real.length(),
                                "In the spring of 1903 the old mill burned down."),
                        Citation.of(chronicle, 0, 10, "invented words"),
                        Citation.of(chat, 0, 5, "[Sess")),
                0.5,
                null,
                false));

        JsonNode answer =
                api.ask(Map.of("documentIds", List.of(chronicle), "question", "anything", "strategy", "test-scripted"));

        assertThat(answer.get("citations")).hasSize(1);
        assertThat(answer.get("citations").get(0).get("quote").asString()).isEqualTo(real);
        JsonNode check = eventOfType(answer, "run.citations");
        assertThat(check.get("kept").asInt()).isEqualTo(1);
        assertThat(check.get("dropped").asInt()).isEqualTo(3);
    }

    @Test
    void aFailingStrategyFailsOnlyItsQuestionAndCanBeRetried() {
        scripted.script(context -> {
            throw new IllegalStateException("the model endpoint returned garbage");
        });
        JsonNode failed = api.ask(
                Map.of("documentIds", List.of(chronicle), "question", "will this fail?", "strategy", "test-scripted"));

        assertThat(failed.get("status").asString()).isEqualTo("FAILED");
        assertThat(failed.get("failureReason").asString()).contains("the model endpoint returned garbage");

        scripted.script(
                context -> new StrategyResult("recovered", StrategyResult.GENERATED, List.of(), 0.9, null, false));
        Response retried = api.post("/v1/questions/" + failed.get("id").asString() + "/retry", Map.of());
        assertThat(retried.status()).isEqualTo(202);
        JsonNode done = api.awaitQuestion(UUID.fromString(failed.get("id").asString()), Duration.ofSeconds(30));
        assertThat(done.get("status").asString()).isEqualTo("DONE");
        assertThat(done.get("answer").asString()).isEqualTo("recovered");
        Response refused = api.post("/v1/questions/" + failed.get("id").asString() + "/retry", Map.of());
        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.json().get("type").asString()).endsWith("/illegal-transition");
        assertThat(refused.json().get("state").asString()).isEqualTo("DONE");
        assertThat(refused.json().get("allowedFrom"))
                .hasSize(1)
                .first()
                .matches(s -> s.asString().equals("FAILED"));
    }

    @Test
    void unknownStrategiesAreRefusedWithTheListOfAvailableOnes() {
        Response response = api.post(
                "/v1/questions", Map.of("documentIds", List.of(chronicle), "question", "q", "strategy", "oracle"));

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.json().get("field").asString()).isEqualTo("strategy");
        assertThat(response.json().get("detail").asString()).contains("extractive");
    }

    @Test
    void strategiesNeedingAnLlmAreRefusedWhenNoneIsConfigured() {
        Response response = api.post(
                "/v1/questions",
                Map.of("documentIds", List.of(chronicle), "question", "q", "strategy", "test-needs-llm"));

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.json().get("type").asString()).endsWith("/llm-not-configured");
        assertThat(response.json().get("detail").asString())
                .contains("OPENAI_API_KEY")
                .contains("extractive");
        List<JsonNode> listed = new ArrayList<>();
        api.get("/v1/strategies").json().forEach(listed::add);
        assertThat(listed)
                .filteredOn(s -> s.get("name").asString().equals("test-needs-llm"))
                .singleElement()
                .satisfies(s -> {
                    assertThat(s.get("available").asBoolean()).isFalse();
                    assertThat(s.get("needsLlm").asBoolean()).isTrue();
                });
        assertThat(listed)
                .filteredOn(s -> s.get("name").asString().equals("extractive"))
                .singleElement()
                .satisfies(s -> assertThat(s.get("available").asBoolean()).isTrue());
    }

    @Test
    void invalidQuestionsAreProblemsNamingTheField() {
        assertField(api.post("/v1/questions", Map.of("documentIds", List.of(chronicle), "question", "  ")), "question");
        assertField(
                api.post(
                        "/v1/questions",
                        Map.of("documentIds", List.of(chronicle), "question", "q", "options", Map.of("hopz", 2))),
                "options.hopz");
        assertField(
                api.post(
                        "/v1/questions",
                        Map.of("documentIds", List.of(chronicle), "question", "q", "options", Map.of("k", 0))),
                "options.k");
        assertField(
                api.post(
                        "/v1/questions",
                        Map.of("documentIds", List.of(chronicle), "question", "q", "choices", List.of("only one"))),
                "choices");
        assertField(api.post("/v1/questions", Map.of("question", "q")), "documentIds");
        assertThat(api.get("/v1/questions/" + UUID.randomUUID()).status()).isEqualTo(404);
    }

    private JsonNode eventOfType(JsonNode question, String type) {
        for (JsonNode event : api.get("/v1/questions/" + question.get("id").asString() + "/trace")
                .json()
                .get("events")) {
            if (event.get("type").asString().equals(type)) {
                return event.get("payload");
            }
        }
        throw new AssertionError("no " + type + " event");
    }

    private String source(JsonNode citation) {
        return api.get("/v1/documents/" + citation.get("documentId").asString() + "/text?start="
                        + citation.get("start").asInt() + "&end="
                        + citation.get("end").asInt())
                .json()
                .get("text")
                .asString();
    }

    private static void assertField(Response response, String field) {
        assertThat(response.status()).as(response.body()).isEqualTo(400);
        assertThat(response.json().get("field").asString()).isEqualTo(field);
    }
}
