package io.lorekeeper.rag;

import static io.lorekeeper.support.TestDocuments.aConversation;
import static io.lorekeeper.support.TestDocuments.aText;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.lorekeeper.llm.ScriptedChatModel;
import io.lorekeeper.strategy.LastResort;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.LlmIntegrationTest;
import io.lorekeeper.text.TokenCounter;
import tools.jackson.databind.JsonNode;

@LlmIntegrationTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RagStrategyTest {

    private static final String FIRE =
            "The fire was started by a lamp that Hector Munro, the miller's apprentice, had left burning in the loft.";
    private static final String CHRONICLE = """
            The village of Ardnacross stood at the mouth of a cold river.

            In the spring of 1902 the old mill burned down. %s Nobody was hurt.

            The new mill was finished in 1904. It was built of grey stone and had a slate roof.
            """.formatted(FIRE);

    @Autowired
    Api api;

    @Autowired
    ScriptedChatModel model;

    @Autowired
    JdbcClient jdbc;

    /** A ship's log, one entry per session, so that every entry is a chunk of its own. */
    private static final List<String> LOG = List.of(
            "We sighted the Butt of Lewis at dawn and turned south.",
            "The cook burned the porridge again and blamed the swell.",
            "Old Fergus mended the torn mainsail with waxed twine.",
            "The captain bought a brass telescope from the chandler at Stornoway.",
            "Fog kept us in harbour for two days.");

    UUID chronicle;
    UUID chat;
    UUID log;

    @BeforeAll
    void ingest() {
        chronicle = api.ingest(aText(CHRONICLE).titled("RAG chronicle").build());
        chat = api.ingest(aConversation()
                .session(
                        "1:56 pm on 8 May, 2023",
                        "Caroline",
                        "I went to a support group yesterday.",
                        "Melanie",
                        "Good for you!")
                .session("3:10 pm on 1 June, 2023", "Caroline", "Next month I start a counselling course.")
                .build());
        var entries = aConversation().titled("Log of the Kittiwake");
        LOG.forEach(entry -> entries.session(null, "Mate", entry));
        log = api.ingest(entries.build());
    }

    @BeforeEach
    void resetModel() {
        model.reset();
    }

    @Test
    void answersFromRetrievedPassagesWithVerifiedCitations() {
        model.on("rag/answer").reply(call -> """
                {"answer": "Hector Munro", "confidence": 0.9,
                 "evidence": [{"passage": %d, "quote": "a lamp that Hector Munro, the miller's apprentice, had left burning"}]}""".formatted(passageContaining(call.user(), "Hector Munro")));

        JsonNode answer = api.ask(
                Map.of("documentIds", List.of(chronicle), "question", "Who started the mill fire?", "strategy", "rag"));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("answer").asString()).isEqualTo("Hector Munro");
        assertThat(answer.get("mode").asString()).isEqualTo("generated");
        JsonNode citation = answer.get("citations").get(0);
        assertThat(citation.get("quote").asString())
                .isEqualTo("a lamp that Hector Munro, the miller's apprentice, had left burning");
        assertThat(CHRONICLE
                        .replace("\r", "")
                        .substring(
                                citation.get("start").asInt(),
                                citation.get("end").asInt()))
                .isEqualTo(citation.get("quote").asString());
        assertThat(model.calls("rag/answer")).hasSize(1);
        assertThat(model.calls("rag/answer").getFirst().user())
                .contains("<passage n=\"1\"")
                .contains("Who started the mill fire?");
        UUID id = UUID.fromString(answer.get("id").asString());
        assertThat(jdbc.sql(
                                "SELECT count(*) FROM llm_call WHERE question_id = ? AND role = 'answerer' AND outcome = 'ok'")
                        .param(id)
                        .query(Integer.class)
                        .single())
                .isEqualTo(1);
    }

    @Test
    void quotesNotInTheSourceAreDroppedAndCounted() {
        model.on("rag/answer").reply("""
                {"answer": "Hector Munro", "confidence": 0.8,
                 "evidence": [{"passage": 1, "quote": "Hector Munro confessed to the magistrate"}, {"passage": 9, "quote": "x"}]}""");

        JsonNode answer =
                api.ask(Map.of("documentIds", List.of(chronicle), "question", "Who confessed?", "strategy", "rag"));

        assertThat(answer.get("citations")).isEmpty();
        JsonNode trace = api.get("/v1/questions/" + answer.get("id").asString() + "/trace")
                .json();
        JsonNode check = null;
        for (JsonNode event : trace.get("events")) {
            if (event.get("type").asString().equals("run.citations")) {
                check = event.get("payload");
            }
        }
        assertThat(check.get("dropped").asInt())
                .as("an invented quote, and one from a passage that does not exist")
                .isEqualTo(2);
        assertThat(check.get("droppedQuotes").get(0).asString()).isEqualTo("Hector Munro confessed to the magistrate");
    }

    @Test
    void anInvalidEvidenceItemIsDroppedAndTracedWhileTheRestOfTheReplyIsKept() {
        model.on("rag/answer").reply(call -> """
                {"answer": "Hector Munro", "confidence": 0.9,
                 "evidence": [{"passage": 0, "quote": "Hector Munro"}, {"passage": %d, "quote": "the miller's apprentice"}]}""".formatted(passageContaining(call.user(), "Hector Munro")));

        JsonNode answer = api.ask(
                Map.of("documentIds", List.of(chronicle), "question", "Who started the fire?", "strategy", "rag"));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("citations"))
                .extracting(c -> c.get("quote").asString())
                .containsExactly("the miller's apprentice");
        assertThat(model.calls("rag/answer#repair"))
                .as("dropping the bad item needs no repair call")
                .isEmpty();
        JsonNode dropped = event(answer, "llm.dropped");
        assertThat(dropped.get("path").asString()).isEqualTo("evidence[0]");
        assertThat(dropped.get("reason").asString()).contains("passage").contains("greater than 0");
    }

    @Test
    void aPlainTextAnswerIsKeptUncitedWithLowConfidence() {
        model.on("rag/answer").reply("It was Hector Munro, the miller's apprentice.");

        JsonNode answer = api.ask(
                Map.of("documentIds", List.of(chronicle), "question", "Who started the fire?", "strategy", "rag"));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("answer").asString()).isEqualTo("It was Hector Munro, the miller's apprentice.");
        assertThat(answer.get("citations")).isEmpty();
        assertThat(answer.get("confidence").asDouble()).isEqualTo(0.2);
        assertThat(event(answer, "llm.plain-text").get("template").asString()).isEqualTo("rag/answer");
    }

    @Test
    void aQuoteCopiedFromAnotherPassageThanTheOneNamedIsStillCited() {
        model.on("rag/answer").reply(call -> {
            int right = passageContaining(call.user(), "counselling course");
            int wrong = passageContaining(call.user(), "support group");
            assertThat(wrong).isNotEqualTo(right);
            return """
                    {"answer": "a counselling course", "confidence": 0.8, "evidence": [{"passage": %d, "quote": "I start a counselling course"}]}""".formatted(wrong);
        });

        JsonNode answer = api.ask(Map.of(
                "documentIds",
                List.of(chat),
                "question",
                "What does Caroline start next month?",
                "strategy",
                "rag",
                "options",
                Map.of("k", 10)));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        JsonNode citation = answer.get("citations").get(0);
        assertThat(citation.get("quote").asString()).isEqualTo("I start a counselling course");
        assertThat(citation.get("turnId").asString()).isEqualTo("D2:1");
    }

    private JsonNode event(JsonNode question, String type) {
        for (JsonNode event : api.get("/v1/questions/" + question.get("id").asString() + "/trace")
                .json()
                .get("events")) {
            if (event.get("type").asString().equals(type)) {
                return event.get("payload");
            }
        }
        throw new AssertionError("no " + type + " event in the trace of " + question);
    }

    @Test
    void conversationPassagesCarryTheirSessionDate() {
        model.on("rag/answer").reply("""
                {"answer": "7 May 2023", "confidence": 0.7, "evidence": []}""");

        api.ask(Map.of(
                "documentIds",
                List.of(chat),
                "question",
                "When did Caroline go to the support group?",
                "strategy",
                "rag"));

        assertThat(model.calls("rag/answer").getFirst().user())
                .contains("session=\"[Session 1, 1:56 pm on 8 May, 2023]\"");
    }

    @Test
    void multipleChoiceAnswersWithTheTextOfTheChosenChoice() {
        // the model's own wording differs from the choice: the answer is the choice's text, not the model's
        model.on("rag/answer").reply("""
                {"answer": "It was built of stone, grey in colour.", "confidence": 0.8, "choice": 1, "evidence": []}""");

        JsonNode answer = api.ask(Map.of(
                "documentIds",
                List.of(chronicle),
                "question",
                "What was the new mill built of?",
                "strategy",
                "rag",
                "choices",
                List.of("red brick", "grey stone")));

        assertThat(answer.get("choiceIndex").asInt()).isEqualTo(1);
        assertThat(answer.get("answer").asString()).isEqualTo("grey stone");
        assertThat(model.calls("rag/answer").getFirst().user())
                .contains("0. red brick")
                .contains("1. grey stone");
    }

    @Test
    void aChoiceIndexOutOfRangeIsIgnoredAndTheModelsAnswerKept() {
        model.on("rag/answer").reply("""
                {"answer": "grey stone", "confidence": 0.4, "choice": 5, "evidence": []}""");

        JsonNode answer = api.ask(Map.of(
                "documentIds",
                List.of(chronicle),
                "question",
                "What was the new mill built of?",
                "strategy",
                "rag",
                "choices",
                List.of("red brick", "grey stone")));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.has("choiceIndex") && !answer.get("choiceIndex").isNull())
                .as("no choice: " + answer)
                .isFalse();
        assertThat(answer.get("answer").asString()).isEqualTo("grey stone");
    }

    @Test
    void passagesAreTakenInRankOrderWhileTheyFitTheTokenBudget() {
        String reply = """
                {"answer": "Morag", "confidence": 0.5,
                 "evidence": [{"passage": 1, "quote": "Fog kept us in harbour"}]}""";
        String question = "What happened aboard the Kittiwake?";
        model.on("rag/answer").reply(reply);
        JsonNode whole = api.ask(Map.of("documentIds", List.of(log), "question", question, "strategy", "rag"));
        JsonNode all = event(whole, "rag.retrieve").get("passages");
        assertThat(all).as("the default budget holds the whole small log").hasSize(LOG.size());
        String text = text(log);
        int firstTwo = tokens(text, all.get(0)) + tokens(text, all.get(1));

        model.reset();
        model.on("rag/answer").reply(reply);
        JsonNode budgeted = api.ask(Map.of(
                "documentIds",
                List.of(log),
                "question",
                question,
                "strategy",
                "rag",
                "options",
                Map.of("tokens", firstTwo + 1)));

        JsonNode some = event(budgeted, "rag.retrieve").get("passages");
        assertThat(some).as("the third passage did not fit").hasSize(2);
        assertThat(some.get(0).get("start").asInt())
                .isEqualTo(all.get(0).get("start").asInt());
        assertThat(some.get(1).get("start").asInt())
                .isEqualTo(all.get(1).get("start").asInt());
        assertThat(event(budgeted, "rag.retrieve").get("tokens").asInt()).isEqualTo(firstTwo + 1);

        model.reset();
        model.on("rag/answer").reply(reply);
        JsonNode tiny = api.ask(Map.of(
                "documentIds", List.of(log), "question", question, "strategy", "rag", "options", Map.of("tokens", 1)));
        assertThat(event(tiny, "rag.retrieve").get("passages"))
                .as("the best passage is always shown")
                .hasSize(1);
    }

    private static int tokens(String text, JsonNode passage) {
        return TokenCounter.count(
                text.substring(passage.get("start").asInt(), passage.get("end").asInt()));
    }

    @Test
    void theWindowOptionWidensEachPassageByItsNeighbouringChunks() {
        // each session is its own chunk; the question matches the third, the quote is in the fourth
        model.on("rag/answer").reply(call -> """
                {"answer": "a brass telescope", "confidence": 0.7,
                 "evidence": [{"passage": 1, "quote": "a brass telescope from the chandler"}]}""");

        JsonNode widened = api.ask(Map.of(
                "documentIds",
                List.of(log),
                "question",
                "Who mended the torn mainsail?",
                "strategy",
                "rag",
                "options",
                Map.of("k", 1, "window", 1)));

        String prompt = model.calls("rag/answer").getFirst().user();
        assertThat(prompt)
                .contains(LOG.get(1))
                .contains(LOG.get(2))
                .contains(LOG.get(3))
                .doesNotContain(LOG.get(0))
                .doesNotContain(LOG.get(4))
                .doesNotContain("<passage n=\"2\"");
        JsonNode passage = event(widened, "rag.retrieve").get("passages").get(0);
        String text = text(log);
        assertThat(text.substring(
                        passage.get("start").asInt(), passage.get("end").asInt()))
                .startsWith("[Session 2")
                .contains(LOG.get(1))
                .contains(LOG.get(2))
                .contains(LOG.get(3))
                .doesNotContain(LOG.get(4));
        assertThat(widened.get("citations")).hasSize(1);
        JsonNode citation = widened.get("citations").get(0);
        assertThat(text.substring(
                        citation.get("start").asInt(), citation.get("end").asInt()))
                .isEqualTo("a brass telescope from the chandler");

        model.reset();
        model.on("rag/answer").reply("""
                {"answer": "a brass telescope", "confidence": 0.7,
                 "evidence": [{"passage": 1, "quote": "a brass telescope from the chandler"}]}""");
        JsonNode narrow = api.ask(Map.of(
                "documentIds",
                List.of(log),
                "question",
                "Who mended the torn mainsail?",
                "strategy",
                "rag",
                "options",
                Map.of("k", 1)));

        assertThat(model.calls("rag/answer").getFirst().user())
                .contains(LOG.get(2))
                .doesNotContain(LOG.get(3));
        JsonNode narrowPassage = event(narrow, "rag.retrieve").get("passages").get(0);
        assertThat(narrowPassage.get("end").asInt() - narrowPassage.get("start").asInt())
                .isLessThan(passage.get("end").asInt() - passage.get("start").asInt());
        assertThat(narrow.get("citations"))
                .as("the quote is not in the unwidened passage")
                .isEmpty();
    }

    @Test
    void anInvalidReplyIsRepairedOnce() {
        model.on("rag/answer")
                .once("{\"answer\": \"Munro\"}")
                .reply("{\"answer\": \"Hector Munro\", \"confidence\": 0.6, \"evidence\": []}");

        JsonNode answer = api.ask(Map.of("documentIds", List.of(chronicle), "question", "Who?", "strategy", "rag"));

        assertThat(answer.get("answer").asString()).isEqualTo("Hector Munro");
        assertThat(model.calls("rag/answer#repair")).hasSize(1);
        assertThat(model.calls("rag/answer#repair").getFirst().user()).contains("confidence");
    }

    @Test
    void aCutOrUnusableAnswerLeavesTheLastResortToAnswerFromThePassages() {
        String cut = "{\"answer\": \"Hector";
        model.on("rag/answer").cutOnce(cut).cutOnce(cut);
        model.on("last-resort/answer").reply("Hector Munro, the miller's apprentice.");

        JsonNode answer = api.ask(
                Map.of("documentIds", List.of(chronicle), "question", "Who started the mill fire?", "strategy", "rag"));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("answer").asString()).isEqualTo("Hector Munro, the miller's apprentice.");
        assertThat(answer.get("confidence").asDouble()).isEqualTo(LastResort.CONFIDENCE);
        assertThat(answer.get("budgetLimited").asBoolean()).isFalse();
        assertThat(event(answer, "step.failed").get("step").asString()).isEqualTo("answer");
        assertThat(event(answer, "llm.truncated").get("template").asString()).isEqualTo("rag/answer");
        assertThat(event(answer, "step.last-resort").get("retrieved").asBoolean())
                .as("the passages shown to the answerer are the evidence")
                .isFalse();
        assertThat(answer.get("citations")).isNotEmpty();
        assertThat(model.calls("last-resort/answer").getFirst().user()).contains("Hector Munro");

        model.reset();
        model.on("rag/answer").reply("{\"confidence\": 0.5}");
        model.on("last-resort/answer").reply("Hector Munro");
        JsonNode unusable = api.ask(
                Map.of("documentIds", List.of(chronicle), "question", "Who started the mill fire?", "strategy", "rag"));
        assertThat(unusable.get("status").asString()).as(unusable.toString()).isEqualTo("DONE");
        assertThat(unusable.get("answer").asString()).isEqualTo("Hector Munro");
        assertThat(unusable.get("confidence").asDouble()).isEqualTo(LastResort.CONFIDENCE);
        assertThat(event(unusable, "step.last-resort").get("reason").asString()).contains("unusable");
    }

    @Test
    void theAnswerPromptAnswersFromThePassagesAndAbstainsOnlyWhenAsked() {
        model.on("rag/answer").reply("{\"answer\": \"Hector Munro\", \"confidence\": 0.6, \"evidence\": []}");

        api.ask(Map.of("documentIds", List.of(chronicle), "question", "Who?", "strategy", "rag"));
        assertThat(model.calls("rag/answer").getFirst().system())
                .doesNotContain("not available")
                .contains("Always give your best answer");

        model.reset();
        model.on("rag/answer").reply("{\"answer\": \"Not available.\", \"confidence\": 0, \"evidence\": []}");
        JsonNode abstained = api.ask(Map.of(
                "documentIds",
                List.of(chronicle),
                "question",
                "Who?",
                "strategy",
                "rag",
                "options",
                Map.of("abstain", true)));
        assertThat(abstained.get("status").asString()).as(abstained.toString()).isEqualTo("DONE");
        assertThat(model.calls("rag/answer").getFirst().system())
                .contains("say that the information is not available in the documents");
    }

    @Test
    void aSpentBudgetStopsCleanlyAndSaysSo() {
        model.on("rag/answer").reply("{\"answer\": \"unfinished\"}");

        JsonNode answer = api.ask(Map.of(
                "documentIds",
                List.of(chronicle),
                "question",
                "Who?",
                "strategy",
                "rag",
                "options",
                Map.of("budget", Map.of("maxCalls", 1))));

        assertThat(answer.get("status").asString()).isEqualTo("DONE");
        assertThat(answer.get("budgetLimited").asBoolean()).isTrue();
        // The question's calls only: the document's memories may still be being written in the background.
        assertThat(model.calls().stream()
                        .map(ScriptedChatModel.Call::template)
                        .filter(t -> !t.startsWith("gam/") && !t.startsWith("mindgraph/") && !t.startsWith("comorag/")))
                .containsExactly("rag/answer");
    }

    @Test
    void badBudgetsAreRefusedUpFront() {
        Api.Response response = api.post(
                "/v1/questions",
                Map.of(
                        "documentIds",
                        List.of(chronicle),
                        "question",
                        "Who?",
                        "strategy",
                        "rag",
                        "options",
                        Map.of("budget", Map.of("maxCalls", -1))));

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.json().get("field").asString()).isEqualTo("options.budget.maxCalls");
    }

    @Test
    void usageSumsExactlyTheCallsMadeInTheWindowAsked() {
        Instant from = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        // the first question's reply lacks its confidence and is repaired: two answerer calls, then one more
        model.on("rag/answer")
                .once("{\"answer\": \"x\"}")
                .reply("{\"answer\": \"three\", \"confidence\": 0.5, \"evidence\": []}");
        api.ask(Map.of("documentIds", List.of(chronicle), "question", "How many mills?", "strategy", "rag"));
        api.ask(Map.of("documentIds", List.of(chronicle), "question", "How many millers?", "strategy", "rag"));
        Instant to = Instant.now().plusMillis(1);
        List<ScriptedChatModel.Reported> served = new java.util.ArrayList<>(model.reported("rag/answer"));
        served.addAll(model.reported("rag/answer#repair"));
        assertThat(served).hasSize(3);

        JsonNode usage = api.get("/v1/usage?from=" + from + "&to=" + to).json();

        JsonNode answerer = null;
        long totalCalls = 0;
        for (JsonNode line : usage.get("byRoleAndModel")) {
            totalCalls += line.get("calls").asLong();
            if (line.get("role").asString().equals("answerer")) {
                assertThat(answerer).as("one model behind the answerer").isNull();
                answerer = line;
            }
        }
        assertThat(answerer).as(usage.toString()).isNotNull();
        assertThat(answerer.get("calls").asLong()).isEqualTo(3);
        assertThat(answerer.get("promptTokens").asLong())
                .isEqualTo(served.stream()
                        .mapToLong(ScriptedChatModel.Reported::promptTokens)
                        .sum());
        assertThat(answerer.get("completionTokens").asLong())
                .isEqualTo(served.stream()
                        .mapToLong(ScriptedChatModel.Reported::completionTokens)
                        .sum());
        assertThat(answerer.get("cacheHits").asLong()).isZero();
        assertThat(answerer.get("errors").asLong()).isZero();
        assertThat(usage.get("total").get("calls").asLong()).isEqualTo(totalCalls);
        // and outside a window that starts after them
        JsonNode after =
                api.get("/v1/usage?from=" + to + "&to=" + to.plusSeconds(3600)).json();
        for (JsonNode line : after.get("byRoleAndModel")) {
            assertThat(line.get("role").asString()).isNotEqualTo("answerer");
        }
        assertThat(api.get("/v1/usage?from=2030-01-01T00:00:00Z&to=2020-01-01T00:00:00Z")
                        .status())
                .isEqualTo(400);
    }

    private String text(UUID document) {
        return api.get("/v1/documents/" + document + "/text").json().get("text").asString();
    }

    private static int passageContaining(String prompt, String text) {
        Matcher m = Pattern.compile("<passage n=\"(\\d+)\"[^>]*>\\n([^<]*)</passage>")
                .matcher(prompt);
        while (m.find()) {
            if (m.group(2).contains(text)) {
                return Integer.parseInt(m.group(1));
            }
        }
        throw new AssertionError("no passage contains " + text);
    }
}
