package io.lorekeeper.cosmir;

import static io.lorekeeper.support.TestDocuments.aText;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
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
import io.lorekeeper.llm.ScriptedChatModel;
import io.lorekeeper.strategy.LastResort;
import io.lorekeeper.strategy.QuestionOptions;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.LlmIntegrationTest;
import io.lorekeeper.text.Blocks;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * COSMIR driven by scripted model replies over real ingested documents: the call sequence, what
 * each prompt carries, the memory after every chunk, pruning, grounding of inferences, the
 * question list, verified citations, imperfect replies and the budget stop.
 */
@LlmIntegrationTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CosmirStrategyTest {

    static final String P1 = "Pip was raised by his sister and her husband Joe Gargery, the village blacksmith. "
            + "One Christmas Eve he met an escaped convict in the marshes and brought him food and a file.";
    static final String P2 =
            "Years later the lawyer Jaggers told Pip that he had great expectations from a secret benefactor. "
                    + "Pip believed the benefactor was Miss Havisham, who lived in Satis House with Estella.";
    static final String P3 =
            "The convict Magwitch returned from New South Wales and revealed that he was the benefactor. "
                    + "Pip was ashamed at first but came to love him.";
    static final String STORY = P1 + "\n\n" + P2 + "\n\n" + P3;
    static final String LIFEBOAT = "The Kilmory lifeboat crew launched 31 times in 2022 and rescued 12 people. "
            + "Their new boat, the Margaret Lindsay, arrived in March.";
    /** Three chunks, one per paragraph (checked in {@link #ingest}). */
    static final int CHUNK_TOKENS = 45;
    /**
     * Three tiny chunks with the paper's k would cap the gathered facts at 6 tokens, pruning every
     * fact at once; tests that are not about pruning give the memory room.
     */
    static final Map<String, Object> ROOMY = Map.of("chunkTokens", CHUNK_TOKENS, "memoryFraction", 50);

    static final List<String> PLAN = List.of(
            "Who paid for Pip's expectations?", "What is the convict's story?", "What did Miss Havisham do for Pip?");

    @Autowired
    Api api;

    @Autowired
    ScriptedChatModel model;

    @Autowired
    CosmirStrategy strategy;

    UUID story;
    UUID lifeboat;

    @BeforeAll
    void ingest() {
        story = api.ingest(
                retrievalOnly(aText(STORY).titled("Great Expectations, briefly").build()));
        lifeboat = api.ingest(
                retrievalOnly(aText(LIFEBOAT).titled("Lifeboat report").build()));
        assertThat(Blocks.split(STORY, 0, 0, CHUNK_TOKENS))
                .extracting(b -> STORY.substring(b.start(), b.end()))
                .containsExactly(P1, P2, P3);
    }

    @BeforeEach
    void reset() {
        model.reset();
    }

    /** No LLM stages at ingestion, so the only model calls are the question's. */
    static Map<String, Object> retrievalOnly(Map<String, Object> document) {
        Map<String, Object> body = new LinkedHashMap<>(document);
        body.put("profile", "retrieval-only");
        return body;
    }

    @Test
    void eachChunkRunsExtractInferRefineOnTheMemoryAndTheManagersFactsBecomeVerifiedCitations() {
        model.on("cosmir/plan").reply(json(Map.of("questions", PLAN)));
        model.on("cosmir/extract")
                .once(facts(
                        fact("Pip was raised by his sister and Joe Gargery.", "raised by his sister"),
                        fact(
                                "Pip helped an escaped convict on Christmas Eve.",
                                "met an escaped convict in the marshes")))
                .once(facts(
                        fact("Jaggers told Pip he had a secret benefactor.", "the lawyer Jaggers told Pip"),
                        fact(
                                "Pip was sure Miss Havisham was his benefactor.",
                                "Pip was certain that it was Miss Havisham")))
                .once(facts(fact(
                        "Magwitch, the convict, revealed he was the benefactor.",
                        "revealed that he was the benefactor")));
        model.on("cosmir/infer")
                .once(json(Map.of("inferred", List.of())))
                .once(inferred(
                        inference("The benefactor is still unconfirmed.", "G3", "[G4]"),
                        inference("A ghost did it.", "G99")))
                .once(inferred(inference("The convict Pip helped, Magwitch, is his benefactor.", "g2", "G5", "G42")));
        model.on("cosmir/refine")
                .once(json(Map.of("questions", PLAN)))
                .once(json(Map.of("questions", List.of(PLAN.get(0), "Is Miss Havisham really the benefactor?"))))
                .once(json(Map.of("questions", List.of())));
        model.on("cosmir/manage")
                .reply(json(Map.of(
                        "answer",
                        "Magwitch",
                        "rationale",
                        "I2 links the convict to the benefactor.",
                        "citedFacts",
                        List.of("I2", "G4", "G7"),
                        "confidence",
                        0.9)));

        JsonNode answer = ask(story, "Who was Pip's benefactor?", ROOMY);

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(model.calls())
                .extracting(ScriptedChatModel.Call::template)
                .containsExactly(
                        "cosmir/plan",
                        "cosmir/extract",
                        "cosmir/infer",
                        "cosmir/refine",
                        "cosmir/extract",
                        "cosmir/infer",
                        "cosmir/refine",
                        "cosmir/extract",
                        "cosmir/infer",
                        "cosmir/refine",
                        "cosmir/manage");

        List<ScriptedChatModel.Call> extracts = model.calls("cosmir/extract");
        assertThat(extracts.get(0).user())
                .contains("Chunk 1 of 3:")
                .contains(P1)
                .doesNotContain(P2)
                .contains("- What is the convict's story?")
                .contains("Gathered facts:\n(none yet)");
        assertThat(extracts.get(1).user())
                .contains("Chunk 2 of 3:")
                .contains(P2)
                .doesNotContain(P1)
                .as("a fact comes with the words it was taken from")
                .contains("[G1] Pip was raised by his sister and Joe Gargery. (chunk 1) — \"raised by his sister\"")
                .contains("[G2]");
        assertThat(extracts.get(2).user())
                .contains(P3)
                .contains("[I1] The benefactor is still unconfirmed. (from G3, G4)")
                .contains("[G4] Pip was sure Miss Havisham was his benefactor. (chunk 2) — "
                        + "\"Pip was certain that it was Miss Havisham\" (not found in the text)")
                .contains("- Is Miss Havisham really the benefactor?")
                .doesNotContain("What is the convict's story?");
        assertThat(model.calls("cosmir/plan").getFirst().user()).contains("Who was Pip's benefactor?");
        assertThat(model.calls("cosmir/manage").getFirst().user())
                .contains("[G5] Magwitch, the convict, revealed he was the benefactor.")
                .contains("[I2] The convict Pip helped, Magwitch, is his benefactor. (from G2, G5)")
                .contains("Open questions:\n(none)");

        JsonNode secondExtract = events(answer, "cosmir.extract").get(1);
        assertThat(strings(secondExtract.get("added"))).containsExactly("G3", "G4");
        assertThat(strings(secondExtract.get("unlocated")))
                .as("a quote that is not in the chunk")
                .containsExactly("G4");
        JsonNode inferTwo = events(answer, "cosmir.infer").get(1);
        assertThat(strings(inferTwo.get("added"))).containsExactly("I1");
        assertThat(inferTwo.get("ungrounded").asInt()).isEqualTo(1);
        assertThat(strings(inferTwo.get("unknownIds"))).containsExactly("G99");
        assertThat(strings(events(answer, "cosmir.infer").get(2).get("unknownIds")))
                .containsExactly("G42");
        JsonNode refineTwo = events(answer, "cosmir.refine").get(1);
        assertThat(strings(refineTwo.get("removed"))).containsExactly(PLAN.get(1), PLAN.get(2));
        assertThat(strings(refineTwo.get("added"))).containsExactly("Is Miss Havisham really the benefactor?");
        assertThat(strings(events(answer, "cosmir.refine").get(0).get("removed")))
                .isEmpty();

        List<JsonNode> memory = events(answer, "cosmir.memory");
        assertThat(memory).hasSize(3);
        JsonNode last = memory.get(2);
        assertThat(last.get("counts").get("gathered").asInt()).isEqualTo(5);
        assertThat(last.get("counts").get("inferred").asInt()).isEqualTo(2);
        assertThat(last.get("counts").get("questions").asInt()).isZero();
        assertThat(last.get("tokens").get("gathered").asInt()).isPositive();
        assertThat(strings(last.get("inferred").get(1).get("basis"))).containsExactly("G2", "G5");
        JsonNode g4 = last.get("gathered").get(3);
        assertThat(g4.get("located").asBoolean()).isFalse();
        assertThat(g4.get("quote").asString()).isEqualTo("Pip was certain that it was Miss Havisham");

        assertThat(answer.get("answer").asString()).isEqualTo("Magwitch");
        assertThat(answer.get("budgetLimited").asBoolean()).isFalse();
        assertThat(answer.get("confidence").asDouble()).isEqualTo(0.9);
        assertThat(answer.get("citations"))
                .extracting(c -> c.get("quote").asString())
                .as("I2 rests on G2 and G5; G4's quote was never found; G7 does not exist")
                .containsExactly("met an escaped convict in the marshes", "revealed that he was the benefactor");
        assertCitationsAreSource(answer);
        JsonNode manage = events(answer, "cosmir.manage").getFirst();
        assertThat(strings(manage.get("uncitableFacts"))).containsExactly("G4");
        assertThat(strings(manage.get("unknownFacts"))).containsExactly("G7");
        assertThat(manage.get("memory").get("answer").asString()).isEqualTo("Magwitch");
        assertThat(events(answer, "cosmir.reading")
                        .getFirst()
                        .get("expectedCalls")
                        .asInt())
                .isEqualTo(11);
    }

    @Test
    void pruningDropsTheOldestGatheredFactsAndKeepsTheNewestWithinTheCap() {
        model.on("cosmir/plan").reply(json(Map.of("questions", PLAN)));
        model.on("cosmir/extract").reply(call -> {
            String chunk = between(call.user(), "<source>\n", "\n</source>");
            String[] sentences = chunk.split("(?<=\\.) ");
            List<Map<String, Object>> facts = new ArrayList<>();
            for (String sentence : sentences) {
                facts.add(fact("Noted: " + sentence, sentence.substring(0, 30)));
            }
            return facts(facts.toArray(Map[]::new));
        });
        model.on("cosmir/infer").reply(json(Map.of("inferred", List.of())));
        model.on("cosmir/refine").reply(json(Map.of("questions", PLAN)));
        model.on("cosmir/manage")
                .reply(json(Map.of("answer", "Magwitch", "citedFacts", List.of("G6", "G1"), "confidence", 0.7)));

        // a cap of 2.0 x 45 tokens holds two fact lines of about 40 tokens (each with its quote), never three
        JsonNode answer =
                ask(story, "Who was Pip's benefactor?", Map.of("chunkTokens", CHUNK_TOKENS, "memoryFraction", 2.0));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        List<JsonNode> extracts = events(answer, "cosmir.extract");
        assertThat(extracts)
                .allSatisfy(e -> assertThat(e.get("gatheredTokens").asInt())
                        .isLessThanOrEqualTo(90)
                        .isLessThanOrEqualTo(e.get("capTokens").asInt()));
        List<String> pruned = new ArrayList<>();
        extracts.forEach(
                e -> e.get("pruned").forEach(p -> pruned.add(p.get("id").asString())));
        List<String> held = new ArrayList<>();
        events(answer, "cosmir.memory")
                .getLast()
                .get("gathered")
                .forEach(f -> held.add(f.get("id").asString()));
        assertThat(held).as("the newest facts survive").isNotEmpty().endsWith("G6");
        List<String> all = new ArrayList<>(pruned);
        all.addAll(held);
        assertThat(all)
                .as("pruned oldest first, then the survivors: every fact once, in order")
                .containsExactly("G1", "G2", "G3", "G4", "G5", "G6");
        assertThat(pruned).contains("G1");
        assertThat(model.calls("cosmir/extract").get(2).user()).doesNotContain("[G1]");
        assertThat(model.calls("cosmir/manage").getFirst().user())
                .doesNotContain("[G1]")
                .contains("[G6] Noted: Pip was ashamed");
        assertThat(answer.get("citations"))
                .extracting(c -> c.get("quote").asString())
                .as("G1 was pruned, so the manager could not have seen it")
                .containsExactly(P3.substring(P3.indexOf("Pip was"), P3.indexOf("Pip was") + 30));
        assertThat(strings(events(answer, "cosmir.manage").getFirst().get("unknownFacts")))
                .containsExactly("G1");
    }

    @Test
    void aSpentBudgetStopsReadingAndTheManagerAnswersFromTheMemorySoFar() {
        model.on("cosmir/plan").reply(json(Map.of("questions", PLAN)));
        model.on("cosmir/extract").reply(facts(fact("Pip helped an escaped convict.", "met an escaped convict")));
        model.on("cosmir/infer").reply(json(Map.of("inferred", List.of())));
        model.on("cosmir/refine").reply(json(Map.of("questions", PLAN)));
        model.on("cosmir/manage")
                .reply(json(Map.of("answer", "Perhaps the convict", "citedFacts", List.of("G1"), "confidence", 0.3)));

        JsonNode answer = ask(
                story,
                "Who was Pip's benefactor?",
                Map.of("chunkTokens", CHUNK_TOKENS, "memoryFraction", 50, "budget", Map.of("maxCalls", 5)));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("budgetLimited").asBoolean()).isTrue();
        assertThat(model.calls())
                .extracting(ScriptedChatModel.Call::template)
                .containsExactly("cosmir/plan", "cosmir/extract", "cosmir/infer", "cosmir/refine", "cosmir/manage");
        assertThat(answer.get("answer").asString()).isEqualTo("Perhaps the convict");
        assertThat(answer.get("citations").get(0).get("quote").asString()).isEqualTo("met an escaped convict");
        JsonNode budget = events(answer, "step.budget").getFirst();
        assertThat(budget.get("step").asString()).isEqualTo("reading");
        assertThat(budget.get("round").asInt())
                .as("one chunk read: the reading stopped before the second")
                .isEqualTo(2);
        assertThat(events(answer, "cosmir.reading").getFirst().get("chunks").asInt())
                .isEqualTo(3);
    }

    @Test
    void imperfectRepliesKeepWhatIsUsable() {
        model.on("cosmir/plan")
                .once("I would ask:\n1. Who paid for Pip's expectations?\n2. Who is the convict?")
                .once("Sorry, as said:\n- Who paid for Pip's expectations?\n- Who is the convict?");
        model.on("cosmir/extract")
                .once(facts(
                        fact("", "Pip"),
                        fact("Joe Gargery is the village blacksmith.", "joe gargery THE village blacksmith"),
                        fact("A convict was hiding.", "words that are nowhere")))
                // the quote is from chunk 1, not from chunk 2 that this call was shown
                .once(facts(fact("Pip had once fed the convict.", "met an escaped convict in the marshes")))
                .once(facts());
        model.on("cosmir/infer")
                .once(json(Map.of("inferred", List.of())))
                .once("- Pip's kindness to the convict matters (from G2, G3).\n- Estella is involved.")
                .once("Still prose.")
                .once(json(Map.of("inferred", List.of())));
        model.on("cosmir/refine").reply(call -> json(Map.of("questions", List.of("Who paid for Pip's expectations?"))));
        model.on("cosmir/manage")
                .once("It was the convict Magwitch, I believe.")
                .once("Magwitch.");

        JsonNode answer = ask(story, "Who was Pip's benefactor?", ROOMY);

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(events(answer, "cosmir.plan").getFirst().get("questions"))
                .extracting(JsonNode::asString)
                .containsExactly("Who paid for Pip's expectations?", "Who is the convict?");
        JsonNode first = events(answer, "cosmir.extract").get(0);
        assertThat(strings(first.get("added")))
                .as("the item with an empty fact is dropped")
                .containsExactly("G1", "G2");
        assertThat(first.get("quotesFound").get("normalized").asInt()).isEqualTo(1);
        assertThat(strings(first.get("unlocated"))).containsExactly("G2");
        assertThat(events(answer, "llm.dropped"))
                .anySatisfy(d -> assertThat(d.get("template").asString()).isEqualTo("cosmir/extract"));
        JsonNode second = events(answer, "cosmir.extract").get(1);
        assertThat(second.get("quotesFound").get("earlier-chunk").asInt()).isEqualTo(1);
        assertThat(strings(second.get("unlocated"))).isEmpty();
        JsonNode infer = events(answer, "cosmir.infer").get(1);
        assertThat(strings(infer.get("added"))).containsExactly("I1");
        assertThat(infer.get("ungrounded").asInt()).isEqualTo(1);
        assertThat(events(answer, "cosmir.memory")
                        .getLast()
                        .get("inferred")
                        .get(0)
                        .get("text")
                        .asString())
                .isEqualTo("Pip's kindness to the convict matters");

        assertThat(answer.get("answer").asString()).isEqualTo("It was the convict Magwitch, I believe.");
        assertThat(answer.get("confidence").asDouble()).isEqualTo(PlainText.CONFIDENCE);
        assertThat(answer.get("citations")).isEmpty();
        assertThat(events(answer, "llm.plain-text"))
                .extracting(e -> e.get("template").asString())
                .contains("cosmir/plan", "cosmir/infer", "cosmir/manage");
        assertThat(model.calls())
                .extracting(ScriptedChatModel.Call::template)
                .containsExactly(
                        "cosmir/plan",
                        "cosmir/plan#repair",
                        "cosmir/extract",
                        "cosmir/infer",
                        "cosmir/refine",
                        "cosmir/extract",
                        "cosmir/infer",
                        "cosmir/infer#repair",
                        "cosmir/refine",
                        "cosmir/extract",
                        "cosmir/infer",
                        "cosmir/refine",
                        "cosmir/manage",
                        "cosmir/manage#repair");
    }

    @Test
    void documentsAreReadOneAfterAnotherAndChoicesReachThePlannerUnlessTurnedOff() {
        model.on("cosmir/plan").reply(json(Map.of("questions", List.of("How many people were rescued?"))));
        model.on("cosmir/extract")
                .once(facts(fact("Pip was raised by Joe Gargery.", "Joe Gargery")))
                .once(facts(fact("The crew rescued 12 people in 2022.", "rescued 12 people")));
        model.on("cosmir/infer").reply(json(Map.of("inferred", List.of())));
        model.on("cosmir/refine").reply(json(Map.of("questions", List.of())));
        model.on("cosmir/manage")
                .reply(json(Map.of("answer", "12", "citedFacts", List.of("G2"), "confidence", 0.8, "choice", 1)));

        JsonNode answer = api.ask(Map.of(
                "documentIds",
                List.of(story, lifeboat),
                "question",
                "How many people did the crew rescue?",
                "choices",
                List.of("31", "12"),
                "strategy",
                "cosmir",
                "options",
                Map.of("chunkTokens", 1000)));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        List<ScriptedChatModel.Call> extracts = model.calls("cosmir/extract");
        assertThat(extracts.get(0).user())
                .contains("Chunk 1 of 2 (document 1 of 2):")
                .contains(P1)
                .doesNotContain("Kilmory");
        assertThat(extracts.get(1).user())
                .contains("Chunk 2 of 2 (document 2 of 2):")
                .contains(LIFEBOAT);
        assertThat(model.calls("cosmir/plan").getFirst().user()).contains("Choices:\n0. 31\n1. 12");
        assertThat(model.calls("cosmir/manage").getFirst().user()).contains("Choices:\n0. 31\n1. 12");
        assertThat(answer.get("answer").asString()).isEqualTo("12");
        assertThat(answer.get("choiceIndex").asInt()).isEqualTo(1);
        JsonNode citation = answer.get("citations").get(0);
        assertThat(citation.get("documentId").asString()).isEqualTo(lifeboat.toString());
        assertThat(LIFEBOAT.substring(
                        citation.get("start").asInt(), citation.get("end").asInt()))
                .isEqualTo("rescued 12 people");

        model.reset();
        model.on("cosmir/plan").reply(json(Map.of("questions", List.of("How many?"))));
        model.on("cosmir/extract").reply(facts());
        model.on("cosmir/infer").reply(json(Map.of("inferred", List.of())));
        model.on("cosmir/refine").reply(json(Map.of("questions", List.of())));
        model.on("cosmir/manage")
                .reply(json(Map.of("answer", "not available", "citedFacts", List.of(), "confidence", 0)));
        api.ask(Map.of(
                "documentIds",
                List.of(lifeboat),
                "question",
                "How many people did the crew rescue?",
                "choices",
                List.of("31", "12"),
                "strategy",
                "cosmir",
                "options",
                Map.of("chunkTokens", 1000, "choicesInQuery", false)));
        assertThat(model.calls("cosmir/plan").getFirst().user()).doesNotContain("Choices:");
        assertThat(model.calls("cosmir/extract").getFirst().user()).doesNotContain("Choices:");
        assertThat(model.calls("cosmir/manage").getFirst().user()).contains("Choices:\n0. 31\n1. 12");
    }

    @Test
    void aManagerWithNothingUsableLeavesTheLastResortToAnswerFromTheFacts() {
        model.on("cosmir/plan").reply(json(Map.of("questions", PLAN)));
        model.on("cosmir/extract")
                .once(facts(fact("Pip helped a convict.", "met an escaped convict in the marshes")))
                .reply(facts());
        model.on("cosmir/infer")
                .once(inferred(inference("Pip owes nothing yet.", "G1")))
                .reply(json(Map.of("inferred", List.of())));
        model.on("cosmir/refine").reply(json(Map.of("questions", PLAN)));
        model.on("cosmir/manage").reply("{\"rationale\": \"I cannot tell.\"}");
        model.on("last-resort/answer").reply("The convict he helped.");

        JsonNode answer = ask(story, "Who was Pip's benefactor?", ROOMY);

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("answer").asString()).isEqualTo("The convict he helped.");
        assertThat(answer.get("confidence").asDouble()).isEqualTo(LastResort.CONFIDENCE);
        assertThat(answer.get("budgetLimited").asBoolean()).isFalse();
        assertThat(answer.get("citations"))
                .extracting(c -> c.get("quote").asString())
                .containsExactly("met an escaped convict in the marshes");
        assertThat(events(answer, "step.failed").getFirst().get("step").asString())
                .isEqualTo("manage");
        assertThat(events(answer, "step.last-resort").getFirst().get("evidence").asInt())
                .isEqualTo(2);
        String prompt = model.calls("last-resort/answer").getFirst().user();
        assertThat(prompt).contains("Pip owes nothing yet.").contains("Pip helped a convict.");
    }

    @Test
    void aReplyCutAtTheOutputLimitCostsOnlyItsStepAndTheQuestionStillEnds() {
        String cutPlan = "{\"thinking\": \"First the benefactor";
        String cutExtract = "{\"facts\": [{\"fact\": \"Pip helped a convict.\", \"quote\": "
                + "\"met an escaped convict in the marshes\"}, {\"fact\": \"Joe";
        String cutInfer = "{\"inferred\": [{\"fact\": \"Pip";
        String cutRefine = "{\"questions\": [\"Who";
        String cutManage = "{\"answer\": \"Mag";
        model.on("cosmir/plan").cutOnce(cutPlan).cutOnce(cutPlan).reply(json(Map.of("questions", PLAN)));
        model.on("cosmir/extract").cutOnce(cutExtract).cutOnce(cutExtract).reply(facts());
        model.on("cosmir/infer").cutOnce(cutInfer).cutOnce(cutInfer).reply(json(Map.of("inferred", List.of())));
        model.on("cosmir/refine").cutOnce(cutRefine).cutOnce(cutRefine).reply(json(Map.of("questions", PLAN)));
        model.on("cosmir/manage").cutOnce(cutManage).cutOnce(cutManage);
        model.on("last-resort/answer").reply("Magwitch");

        JsonNode answer = ask(story, "Who was Pip's benefactor?", ROOMY);

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(events(answer, "step.failed"))
                .extracting(e -> e.get("step").asString())
                .containsExactly("plan", "infer", "refine", "manage");
        assertThat(events(answer, "step.failed"))
                .allSatisfy(e -> assertThat(e.get("reason").asString()).contains("output limit"));
        assertThat(events(answer, "cosmir.plan").getFirst().get("fallback").asBoolean())
                .isTrue();
        assertThat(strings(events(answer, "cosmir.extract").getFirst().get("added")))
                .as("the complete fact of the cut reply is kept")
                .containsExactly("G1");
        assertThat(events(answer, "llm.truncated"))
                .extracting(e -> e.get("template").asString())
                .contains("cosmir/plan", "cosmir/extract", "cosmir/infer", "cosmir/refine", "cosmir/manage");
        assertThat(answer.get("answer").asString()).isEqualTo("Magwitch");
        assertThat(answer.get("confidence").asDouble()).isEqualTo(LastResort.CONFIDENCE);
        assertThat(events(answer, "step.last-resort")).hasSize(1);
        assertThat(answer.get("citations"))
                .extracting(c -> c.get("quote").asString())
                .containsExactly("met an escaped convict in the marshes");
    }

    @Test
    void theDeadlinePassingMidReadingStopsBeforeAChunkThatWouldNotFinishAndTheManagerAnswers() {
        model.on("cosmir/plan").reply(json(Map.of("questions", PLAN)));
        model.on("cosmir/extract")
                .delay(java.time.Duration.ofMillis(1500))
                .reply(facts(fact("Pip helped an escaped convict.", "met an escaped convict")));
        model.on("cosmir/infer").reply(json(Map.of("inferred", List.of())));
        model.on("cosmir/refine").reply(json(Map.of("questions", PLAN)));
        model.on("cosmir/manage")
                .reply(json(Map.of("answer", "Perhaps the convict", "citedFacts", List.of("G1"), "confidence", 0.3)));

        JsonNode answer = ask(
                story,
                "Who was Pip's benefactor?",
                Map.of("chunkTokens", CHUNK_TOKENS, "memoryFraction", 50, "budget", Map.of("maxSeconds", 3)));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("budgetLimited").asBoolean()).isTrue();
        assertThat(answer.get("answer").asString()).isEqualTo("Perhaps the convict");
        assertThat(model.calls("cosmir/extract")).hasSize(1);
        JsonNode budget = events(answer, "step.budget").getFirst();
        assertThat(budget.get("round").asInt())
                .as("one chunk read: the reading stopped before the second")
                .isEqualTo(2);
        assertThat(budget.get("reason").asString()).contains("wall time");
        assertThat(events(answer, "run.fallback")).isEmpty();
    }

    @Test
    void anEmptyMemoryStillEndsInAnAnswerAndTheManagerAbstainsOnlyWhenAsked() {
        model.on("cosmir/plan")
                .reply(json(
                        Map.of("thinking", "1. Pip and his benefactor. 2. Follow both. 3. Ask.", "questions", PLAN)));
        model.on("cosmir/extract").reply(facts());
        model.on("cosmir/infer").reply(json(Map.of("inferred", List.of())));
        model.on("cosmir/refine").reply(json(Map.of("questions", PLAN)));
        model.on("cosmir/manage").reply("{}");
        model.on("last-resort/answer").reply("Magwitch");

        JsonNode answer = ask(story, "Who was Pip's benefactor?", ROOMY);

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("answer").asString()).isEqualTo("Magwitch");
        assertThat(answer.get("confidence").asDouble()).isEqualTo(LastResort.CONFIDENCE);
        assertThat(events(answer, "step.last-resort")
                        .getFirst()
                        .get("retrieved")
                        .asBoolean())
                .as("with no facts gathered, the question's best passages stand in")
                .isTrue();
        assertThat(events(answer, "cosmir.plan").getFirst().get("thinking").asString())
                .startsWith("1. Pip and his benefactor.");
        assertThat(model.calls("cosmir/plan").getFirst().system())
                .contains("Start with \"thinking\"")
                .contains("three steps");
        String manager = model.calls("cosmir/manage").getFirst().system();
        assertThat(manager).doesNotContain("not available").contains("Always give your best answer");

        model.reset();
        model.on("cosmir/plan").reply(json(Map.of("questions", PLAN)));
        model.on("cosmir/extract").reply(facts());
        model.on("cosmir/infer").reply(json(Map.of("inferred", List.of())));
        model.on("cosmir/refine").reply(json(Map.of("questions", PLAN)));
        model.on("cosmir/manage")
                .reply(json(Map.of("answer", "Not available.", "citedFacts", List.of(), "confidence", 0)));
        JsonNode abstained = ask(
                story,
                "Who was Pip's benefactor?",
                Map.of("chunkTokens", CHUNK_TOKENS, "memoryFraction", 50, "abstain", true));
        assertThat(abstained.get("status").asString()).as(abstained.toString()).isEqualTo("DONE");
        assertThat(model.calls("cosmir/manage").getFirst().system())
                .contains("say that the information is not available in the documents");
    }

    @Test
    void theDefaultWallTimeGrowsWithTheChunksToRead() {
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
                .as("10 chunks of 64,000 tokens: 1 + 3 × 10 + 1 calls of 30 s")
                .contains(java.time.Duration.ofSeconds(32 * 30));
        DocumentInfo small = new DocumentInfo(
                UUID.randomUUID(),
                UUID.randomUUID(),
                "a note",
                DocumentKind.TEXT,
                "default",
                DocumentStatus.READY,
                200,
                50,
                1);
        assertThat(strategy.defaultWallTime(new QuestionOptions(Map.of()), List.of(small)))
                .contains(java.time.Duration.ofSeconds(5 * 30));
    }

    @Test
    void aChunkTooLargeForTheModelsContextWindowIsRefusedUpFront() {
        Api.Response refused = api.post(
                "/v1/questions",
                Map.of(
                        "documentIds",
                        List.of(story),
                        "question",
                        "q",
                        "strategy",
                        "cosmir",
                        "options",
                        Map.of("chunkTokens", 200_000)));

        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.json().get("field").asString()).isEqualTo("options.chunkTokens");
        assertThat(refused.json().get("detail").asString()).contains("context-window 128000");

        Api.Response unknown = api.post(
                "/v1/questions",
                Map.of(
                        "documentIds",
                        List.of(story),
                        "question",
                        "q",
                        "strategy",
                        "cosmir",
                        "options",
                        Map.of("k", 0.5)));
        assertThat(unknown.status()).isEqualTo(400);
        assertThat(unknown.json().get("field").asString()).isEqualTo("options.k");
        assertThat(model.calls()).isEmpty();
    }

    // ------------------------------------------------------------------ helpers

    private JsonNode ask(UUID document, String question, Map<String, Object> options) {
        return api.ask(Map.of(
                "documentIds", List.of(document), "question", question, "strategy", "cosmir", "options", options));
    }

    private void assertCitationsAreSource(JsonNode answer) {
        assertThat(answer.get("citations")).as(answer.toString()).isNotEmpty();
        for (JsonNode c : answer.get("citations")) {
            assertThat(STORY.substring(c.get("start").asInt(), c.get("end").asInt()))
                    .isEqualTo(c.get("quote").asString());
        }
    }

    List<JsonNode> events(JsonNode question, String type) {
        List<JsonNode> found = new ArrayList<>();
        api.get("/v1/questions/" + question.get("id").asString() + "/trace")
                .json()
                .get("events")
                .forEach(e -> {
                    if (e.get("type").asString().equals(type)) {
                        found.add(e.get("payload"));
                    }
                });
        return found;
    }

    static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asString()));
        return out;
    }

    static Map<String, Object> fact(String fact, String quote) {
        return Map.of("fact", fact, "quote", quote);
    }

    @SafeVarargs
    static String facts(Map<String, Object>... facts) {
        return json(Map.of("facts", List.of(facts)));
    }

    static Map<String, Object> inference(String fact, String... basis) {
        return Map.of("fact", fact, "basis", List.of(basis));
    }

    @SafeVarargs
    static String inferred(Map<String, Object>... inferences) {
        return json(Map.of("inferred", List.of(inferences)));
    }

    static String json(Object value) {
        return JsonMapper.builder().build().writeValueAsString(value);
    }

    static String between(String text, String from, String to) {
        int start = text.indexOf(from);
        return text.substring(start + from.length(), text.indexOf(to, start));
    }
}
