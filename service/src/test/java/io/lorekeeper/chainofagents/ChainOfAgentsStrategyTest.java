package io.lorekeeper.chainofagents;

import static io.lorekeeper.support.TestDocuments.aText;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;

import io.lorekeeper.document.DocumentInfo;
import io.lorekeeper.document.DocumentKind;
import io.lorekeeper.document.DocumentStatus;
import io.lorekeeper.llm.ContextLimit;
import io.lorekeeper.llm.ScriptedChatModel;
import io.lorekeeper.strategy.LastResort;
import io.lorekeeper.strategy.QuestionOptions;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.LlmIntegrationTest;
import io.lorekeeper.text.Blocks;
import io.lorekeeper.text.TokenCounter;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Chain of Agents driven by scripted replies: the summary handed from worker to worker, its cap, citations, budget and imperfect replies. */
@LlmIntegrationTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ChainOfAgentsStrategyTest {

    static final String P1 = "Pip was raised by his sister and her husband Joe Gargery, the village blacksmith. "
            + "One Christmas Eve he met an escaped convict in the marshes and brought him food and a file.";
    static final String P2 =
            "Years later the lawyer Jaggers told Pip that he had great expectations from a secret benefactor. "
                    + "Pip believed the benefactor was Miss Havisham, who lived in Satis House with Estella.";
    static final String P3 =
            "The convict Magwitch returned from New South Wales and revealed that he was the benefactor. "
                    + "Pip was ashamed at first but came to love him.";
    static final String STORY = P1 + "\n\n" + P2 + "\n\n" + P3;
    static final int CHUNK_TOKENS = 45;
    /** Summaries of up to 2,250 tokens: room enough for tests that are not about the cap. */
    static final Map<String, Object> ROOMY = Map.of("chunkTokens", CHUNK_TOKENS, "memoryFraction", 50);

    @Autowired
    Api api;

    @Autowired
    ScriptedChatModel model;

    @Autowired
    ChainOfAgentsStrategy strategy;

    UUID story;

    @BeforeAll
    void ingest() {
        Map<String, Object> body = new LinkedHashMap<>(
                aText(STORY).titled("Great Expectations, briefly").build());
        body.put("profile", "retrieval-only");
        story = api.ingest(body);
        assertThat(Blocks.split(STORY, 0, 0, CHUNK_TOKENS)).hasSize(3);
    }

    @BeforeEach
    void reset() {
        model.reset();
    }

    @Test
    void eachWorkerRewritesTheSummaryItWasHandedAndOnlyQuotesFoundInTheTextAreCited() {
        String s1 = "Pip, raised by Joe Gargery, \"met an escaped convict in the marshes\".";
        String s2 = s1 + " Jaggers says a secret benefactor pays; Pip thinks it is Miss Havisham.";
        String s3 = s2 + " The convict Magwitch \"revealed that he was the benefactor\".";
        model.on("chain-of-agents/worker").once(summary(s1)).once(summary(s2)).once(summary(s3));
        model.on("chain-of-agents/manage")
                .reply(json(Map.of(
                        "answer",
                        "Magwitch",
                        "confidence",
                        0.8,
                        "quotes",
                        List.of(
                                "revealed that he was the benefactor",
                                "Magwitch paid for everything",
                                "Magwitch",
                                " Joe  Gargery ",
                                "the village\nblacksmith"))));

        JsonNode answer = ask("Who was Pip's benefactor?", ROOMY);

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(model.calls())
                .extracting(ScriptedChatModel.Call::template)
                .containsExactly(
                        "chain-of-agents/worker",
                        "chain-of-agents/worker",
                        "chain-of-agents/worker",
                        "chain-of-agents/manage");
        List<ScriptedChatModel.Call> workers = model.calls("chain-of-agents/worker");
        assertThat(workers.get(0).user())
                .contains("(nothing yet: this is the first part)")
                .contains("Chunk 1 of 3:")
                .contains(P1)
                .doesNotContain(P2);
        assertThat(workers.get(1).user()).contains(s1).contains(P2).doesNotContain(P1);
        assertThat(workers.get(2).user()).contains(s2).contains(P3);
        String manager = model.calls("chain-of-agents/manage").getFirst().user();
        assertThat(manager).contains(s3).doesNotContain(P3).contains("Who was Pip's benefactor?");

        assertThat(answer.get("answer").asString()).isEqualTo("Magwitch");
        assertThat(answer.get("citations"))
                .extracting(c -> c.get("quote").asString())
                .as("an invented quote, a one-word and a two-word quote are not cited; three words are")
                .containsExactly("revealed that he was the benefactor", "the village blacksmith");
        JsonNode citation = answer.get("citations").get(0);
        assertThat(STORY.substring(
                        citation.get("start").asInt(), citation.get("end").asInt()))
                .isEqualTo("revealed that he was the benefactor");
        JsonNode manage = events(answer, "chain-of-agents.manage").getFirst();
        assertThat(manage.get("quotesUnlocated"))
                .extracting(JsonNode::asString)
                .containsExactly("Magwitch paid for everything", "Magwitch", " Joe  Gargery ");
        List<JsonNode> steps = events(answer, "chain-of-agents.worker");
        assertThat(steps).extracting(w -> w.get("summary").asString()).containsExactly(s1, s2, s3);
        assertThat(steps.get(2).get("summaryTokens").asInt()).isEqualTo(TokenCounter.count(s3));
        assertThat(events(answer, "chain-of-agents.reading")
                        .getFirst()
                        .get("expectedCalls")
                        .asInt())
                .isEqualTo(4);
    }

    @Test
    void aSummaryOverTheCapIsCutToItsLeadingSentences() {
        String first = "Pip grew up with his sister and Joe Gargery in the marsh country.";
        String longer = first + " He met an escaped convict one Christmas Eve and fed him in secret. "
                + "He also stole a file from the forge so the convict could free himself.";
        model.on("chain-of-agents/worker").once(summary(longer)).reply(call -> summary("Kept."));
        model.on("chain-of-agents/manage")
                .reply(json(Map.of("answer", "unknown", "confidence", 0.1, "quotes", List.of())));
        int cap = TokenCounter.count(first) + 2;

        JsonNode answer = ask(
                "Who was Pip's benefactor?",
                Map.of("chunkTokens", CHUNK_TOKENS, "memoryFraction", (double) cap / CHUNK_TOKENS));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        JsonNode step = events(answer, "chain-of-agents.worker").getFirst();
        assertThat(step.get("summary").asString()).isEqualTo(first);
        assertThat(step.get("cutTokens").asInt()).isEqualTo(TokenCounter.count(longer) - TokenCounter.count(first));
        assertThat(model.calls("chain-of-agents/worker").get(1).user())
                .contains(first)
                .doesNotContain("escaped convict one Christmas");
        assertThat(model.calls("chain-of-agents/worker").get(0).system())
                .contains("Use up to " + cap * 3 / 4 + " words");
    }

    @Test
    void aSpentBudgetStopsReadingAndTheManagerAnswersFromTheSummarySoFar() {
        model.on("chain-of-agents/worker")
                .reply(call -> summary("So far: Pip \"met an escaped convict in the marshes\"."));
        model.on("chain-of-agents/manage")
                .reply(json(Map.of(
                        "answer",
                        "Perhaps the convict",
                        "confidence",
                        0.3,
                        "quotes",
                        List.of("met an escaped convict in the marshes"))));

        JsonNode answer = ask(
                "Who was Pip's benefactor?",
                Map.of("chunkTokens", CHUNK_TOKENS, "memoryFraction", 50, "budget", Map.of("maxCalls", 3)));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("budgetLimited").asBoolean()).isTrue();
        assertThat(model.calls())
                .extracting(ScriptedChatModel.Call::template)
                .containsExactly("chain-of-agents/worker", "chain-of-agents/worker", "chain-of-agents/manage");
        assertThat(answer.get("answer").asString()).isEqualTo("Perhaps the convict");
        assertThat(answer.get("citations").get(0).get("quote").asString())
                .isEqualTo("met an escaped convict in the marshes");
        JsonNode stop = events(answer, "step.budget").getFirst();
        assertThat(stop.get("step").asString()).isEqualTo("reading");
        assertThat(stop.get("round").asInt())
                .as("two chunks read: the reading stopped before the third")
                .isEqualTo(3);
    }

    @Test
    void proseIsASummaryAndAnAnswerButAnUnusableWorkerReplyLeavesTheSummaryAsItWas() {
        model.on("chain-of-agents/worker")
                .once("Pip lives with Joe Gargery and once helped a convict.")
                .once("Same again, in prose.")
                .once("{\"notes\": 1}")
                .once("{\"notes\": 2}")
                .once(summary("Pip lives with Joe; Magwitch is the benefactor."));
        model.on("chain-of-agents/manage").once("Magwitch, the convict.").once("Magwitch.");

        JsonNode answer = ask("Who was Pip's benefactor?", ROOMY);

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        List<ScriptedChatModel.Call> workers = model.calls("chain-of-agents/worker");
        assertThat(workers).as("repair calls are listed apart").hasSize(3);
        assertThat(workers.get(1).user())
                .as("the prose summary is handed on")
                .contains("Pip lives with Joe Gargery and once helped a convict.");
        assertThat(workers.get(2).user())
                .as("the failed step left it unchanged")
                .contains("Pip lives with Joe Gargery and once helped a convict.")
                .contains(P3);
        assertThat(events(answer, "step.failed").getFirst().get("chunk").asInt())
                .isEqualTo(2);
        assertThat(answer.get("answer").asString()).isEqualTo("Magwitch, the convict.");
        assertThat(answer.get("confidence").asDouble()).isEqualTo(ChainOfAgentsStrategy.PLAIN_TEXT_CONFIDENCE);
        assertThat(answer.get("citations")).isEmpty();
        assertThat(events(answer, "llm.plain-text"))
                .extracting(e -> e.get("template").asString())
                .containsExactly("chain-of-agents/worker", "chain-of-agents/manage");
    }

    @Test
    void aCutWorkerReplyLeavesTheSummaryAndACutManagerLeavesTheLastResortToAnswerFromIt() {
        String s1 = "Pip, raised by Joe Gargery, \"met an escaped convict in the marshes\".";
        String cutSummary = "{\"summary\": \"Pip, raised by Joe";
        String cutAnswer = "{\"answer\": \"Mag";
        model.on("chain-of-agents/worker")
                .once(summary(s1))
                .cutOnce(cutSummary)
                .cutOnce(cutSummary)
                .reply(call -> summary(s1));
        model.on("chain-of-agents/manage").cutOnce(cutAnswer).cutOnce(cutAnswer);
        model.on("last-resort/answer").reply("The escaped convict.");

        JsonNode answer = ask("Who was Pip's benefactor?", ROOMY);

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(events(answer, "step.failed"))
                .extracting(e -> e.get("step").asString())
                .containsExactly("worker", "manage");
        assertThat(events(answer, "step.failed").getFirst().get("chunk").asInt())
                .isEqualTo(2);
        assertThat(events(answer, "llm.truncated"))
                .extracting(e -> e.get("template").asString())
                .contains("chain-of-agents/worker", "chain-of-agents/manage");
        assertThat(model.calls("chain-of-agents/worker").get(3).user())
                .as("the cut step left the summary as it was")
                .contains(s1);
        assertThat(answer.get("answer").asString()).isEqualTo("The escaped convict.");
        assertThat(answer.get("confidence").asDouble()).isEqualTo(LastResort.CONFIDENCE);
        assertThat(model.calls("last-resort/answer").getFirst().user()).contains(s1);
        assertThat(answer.get("citations"))
                .extracting(c -> c.get("quote").asString())
                .as("the summary's quote, found in the text, is cited")
                .containsExactly("met an escaped convict in the marshes");
    }

    @Test
    void theDeadlinePassingMidReadingStopsTheChainAndTheManagerAnswers() {
        model.on("chain-of-agents/worker")
                .delay(java.time.Duration.ofMillis(1500))
                .reply(call -> summary("So far: Pip \"met an escaped convict in the marshes\"."));
        model.on("chain-of-agents/manage")
                .reply(json(Map.of("answer", "Perhaps the convict", "confidence", 0.3, "quotes", List.of())));

        JsonNode answer = ask(
                "Who was Pip's benefactor?",
                Map.of("chunkTokens", CHUNK_TOKENS, "memoryFraction", 50, "budget", Map.of("maxSeconds", 3)));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("budgetLimited").asBoolean()).isTrue();
        assertThat(answer.get("answer").asString()).isEqualTo("Perhaps the convict");
        assertThat(model.calls("chain-of-agents/worker")).hasSizeLessThan(3);
        assertThat(events(answer, "step.budget").getFirst().get("reason").asString())
                .contains("wall time");
        assertThat(events(answer, "run.fallback")).isEmpty();
    }

    @Test
    void anEmptySummaryStillEndsInAnAnswerAndTheManagerAbstainsOnlyWhenAsked() {
        model.on("chain-of-agents/worker").reply("{\"notes\": 1}");
        model.on("chain-of-agents/manage").reply("{}");
        model.on("last-resort/answer").reply("Magwitch");

        JsonNode answer = ask("Who was Pip's benefactor?", ROOMY);

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("answer").asString()).isEqualTo("Magwitch");
        assertThat(answer.get("confidence").asDouble()).isEqualTo(LastResort.CONFIDENCE);
        assertThat(events(answer, "step.last-resort")
                        .getFirst()
                        .get("retrieved")
                        .asBoolean())
                .isTrue();
        assertThat(model.calls("chain-of-agents/manage").getFirst().user()).contains("(empty: nothing was read)");
        assertThat(model.calls("chain-of-agents/manage").getFirst().system())
                .doesNotContain("not available")
                .contains("Always give your best answer");

        model.reset();
        model.on("chain-of-agents/worker").reply(call -> summary("Nothing yet."));
        model.on("chain-of-agents/manage")
                .reply(json(Map.of("answer", "Not available.", "confidence", 0, "quotes", List.of())));
        Map<String, Object> abstain = new LinkedHashMap<>(ROOMY);
        abstain.put("abstain", true);
        JsonNode abstained = ask("Who was Pip's benefactor?", abstain);
        assertThat(abstained.get("status").asString()).as(abstained.toString()).isEqualTo("DONE");
        assertThat(model.calls("chain-of-agents/manage").getFirst().system())
                .contains("say that the information is not available in the documents");
    }

    @Test
    void workersAreAskedForThePapersWholeSummaryWithAReplyLimitThatCarriesItAndTheWallTimeGrowsWithTheChunks() {
        model.on("chain-of-agents/worker").reply(call -> summary("Kept."));
        model.on("chain-of-agents/manage")
                .reply(json(Map.of("answer", "unknown", "confidence", 0.1, "quotes", List.of())));

        JsonNode answer = ask("Who was Pip's benefactor?", Map.of("chunkTokens", 64_000));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        ScriptedChatModel.Call worker = model.calls("chain-of-agents/worker").getFirst();
        assertThat(worker.system())
                .as("8,000 tokens, the paper's summary, in words")
                .contains("Use up to 6000 words")
                .as("the paper's workers are not told to hold back the answer")
                .doesNotContain("Do not answer the question yet");
        int reply = ChainOfAgentsStrategy.replyTokens(8_000);
        assertThat(reply)
                .as("the summary as a JSON string, escaped, and its braces")
                .isEqualTo(9_400);
        assertThat(worker.options().getMaxTokens())
                .as("the researcher's default limit of 8,192 raised to carry the whole summary")
                .isEqualTo(reply);
        assertThat(model.calls("chain-of-agents/manage").getFirst().options().getMaxTokens())
                .as("only the workers' limit is raised")
                .isLessThan(reply);
        JsonNode reading = events(answer, "chain-of-agents.reading").getFirst();
        assertThat(reading.get("summaryTokens").asInt()).isEqualTo(8_000);
        assertThat(reading.get("requestedSummaryTokens").asInt()).isEqualTo(8_000);
        assertThat(reading.get("workerOutputTokens").asInt()).isEqualTo(reply);
        assertThat(reading.has("summaryLowered")).isFalse();
        assertThat(reading.get("holdAnswer").asBoolean()).isFalse();

        model.reset();
        model.on("chain-of-agents/worker").reply(call -> summary("Kept."));
        model.on("chain-of-agents/manage")
                .reply(json(Map.of("answer", "unknown", "confidence", 0.1, "quotes", List.of())));
        JsonNode held = ask("Who was Pip's benefactor?", Map.of("chunkTokens", 64_000, "holdAnswer", true));
        assertThat(held.get("status").asString()).as(held.toString()).isEqualTo("DONE");
        assertThat(model.calls("chain-of-agents/worker").getFirst().system())
                .contains("Do not answer the question yet");

        ChainOfAgentsStrategy.Settings ownLimit = ChainOfAgentsStrategy.Settings.of(
                QuestionOptions.none(), new ContextLimit("small-output", 128_000, 4_096), wanted -> 4_096);
        assertThat(ownLimit.workerOutputTokens())
                .as("a profile's own max-output-tokens is never raised")
                .isEqualTo(4_096);
        assertThat(ownLimit.requestedSummaryTokens())
                .isEqualTo(ChainOfAgentsStrategy.summaryFitting(4_096))
                .isLessThan(8_000);
        assertThat(ownLimit.summaryLowered())
                .contains("profile 'small-output' sets max-output-tokens 4096")
                .contains("raise it to 9400");

        DocumentInfo book = new DocumentInfo(
                UUID.randomUUID(),
                UUID.randomUUID(),
                "a long book",
                DocumentKind.TEXT,
                "default",
                DocumentStatus.READY,
                2_000_000,
                640_000,
                2_000);
        assertThat(strategy.defaultWallTime(new QuestionOptions(Map.of()), List.of(book)))
                .as("10 chunks of 64,000 tokens: 10 workers and the manager, 30 s each")
                .contains(java.time.Duration.ofSeconds(11 * 30));
    }

    @Test
    void aChunkTooLargeForTheModelsContextWindowIsRefused() {
        Api.Response refused = api.post(
                "/v1/questions",
                Map.of(
                        "documentIds",
                        List.of(story),
                        "question",
                        "q",
                        "strategy",
                        "chain-of-agents",
                        "options",
                        Map.of("chunkTokens", 125_000)));

        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.json().get("field").asString()).isEqualTo("options.chunkTokens");
        assertThat(refused.json().get("detail").asString()).contains("chain-of-agents with chunkTokens 125000");
        assertThat(model.calls()).isEmpty();
    }

    private JsonNode ask(String question, Map<String, Object> options) {
        return api.ask(Map.of(
                "documentIds",
                List.of(story),
                "question",
                question,
                "strategy",
                "chain-of-agents",
                "options",
                options));
    }

    private List<JsonNode> events(JsonNode question, String type) {
        return api.traceEvents(question, type);
    }

    private static String summary(String text) {
        return json(Map.of("summary", text));
    }

    private static String json(Object value) {
        return JsonMapper.builder().build().writeValueAsString(value);
    }
}
