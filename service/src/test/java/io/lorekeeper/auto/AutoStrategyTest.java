package io.lorekeeper.auto;

import static io.lorekeeper.support.TestDocuments.aConversation;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;

import io.lorekeeper.llm.ScriptedChatModel;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.LlmIntegrationTest;
import io.lorekeeper.support.TestDocuments;
import tools.jackson.databind.JsonNode;

/**
 * auto over real ingested conversations with the scripted model: the strategy it picks runs (its
 * prompts are the ones called), a memory that is not ready steers it elsewhere, the budget and the
 * per-strategy options reach the pick, and its reasons are in the trace.
 */
@LlmIntegrationTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AutoStrategyTest {

    @Autowired
    Api api;

    @Autowired
    ScriptedChatModel model;

    UUID withMemos;
    UUID withoutMemos;

    @BeforeAll
    void ingest() {
        model.reset();
        withMemos = api.ingest(conversation("Kestrel"));
        api.awaitStage(withMemos, "memos", "DONE", Duration.ofMinutes(2));
        withoutMemos = api.ingest(withProfile(conversation("Osprey"), "retrieval-only"));
    }

    @BeforeEach
    void reset() {
        model.reset();
    }

    @Test
    void aTemporalQuestionOnAConversationWithMemosRunsGam() {
        scriptGam();

        JsonNode answer = ask(withMemos, "When did Ines start at the observatory?", Map.of());

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        JsonNode auto = event(answer, "auto.route");
        assertThat(auto.get("chosen").asString()).isEqualTo("gam");
        assertThat(auto.get("rule").asString()).isEqualTo("conversation-reasoning");
        assertThat(auto.get("reasons")).extracting(JsonNode::asString).contains("the question asks about time");
        assertThat(auto.get("situation").get("conversation").asBoolean()).isTrue();
        assertThat(model.calls("gam/plan")).hasSize(1);
        assertThat(model.calls("gam/answer")).hasSize(1);
        assertThat(model.calls("rag/answer")).isEmpty();
        assertThat(answer.get("answer").asString()).isEqualTo("On Monday 4 March 2024.");
    }

    @Test
    void whenTheMemosAreNotReadyItPicksTheNextStrategyThatCanRun() {
        // MemCoT comes next for this rule when it is deployed; rag closes the list either way
        model.on("memcot/zoom-in").reply("{\"thinking\": \"-\", \"missingInformation\": \"\", \"usefulIds\": []}");
        model.on("memcot/zoom-out").reply("{\"thinking\": \"-\", \"missingInformation\": \"\", \"usefulIds\": []}");
        model.on("memcot/judge")
                .reply("{\"thinking\": \"-\", \"usefulIds\": [], \"canAnswer\": true, \"action\": null, "
                        + "\"newQueries\": [], \"resolved\": []}");
        model.on("memcot/answer").reply("{\"answer\": \"On Monday.\", \"evidence\": [], \"confidence\": 0.5}");
        model.on("rag/answer").reply("{\"answer\": \"On Monday.\", \"evidence\": [], \"confidence\": 0.5}");
        boolean memcot = deployed().contains("memcot");

        JsonNode answer = ask(withoutMemos, "When did Ines start at the observatory?", Map.of());

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        JsonNode auto = event(answer, "auto.route");
        List<String> verdicts = new ArrayList<>();
        auto.get("considered")
                .forEach(c -> verdicts.add(
                        c.get("strategy").asString() + ": " + c.get("verdict").asString()));
        assertThat(verdicts.get(0)).startsWith("gam: needs the 'memos' memory, which is SKIPPED");
        if (memcot) {
            assertThat(verdicts.get(1)).isEqualTo("memcot: chosen");
            assertThat(model.calls("memcot/zoom-in")).as("MemCoT ran").isNotEmpty();
            assertThat(model.calls("rag/answer")).isEmpty();
        } else {
            assertThat(verdicts.subList(1, 3)).containsExactly("memcot: not deployed here", "rag: chosen");
            assertThat(model.calls("rag/answer")).hasSize(1);
            assertThat(answer.get("answer").asString()).isEqualTo("On Monday.");
        }
        assertThat(model.calls("gam/plan")).isEmpty();
        JsonNode degraded = answer.get("degraded");
        assertThat(degraded == null || degraded.isNull() || degraded.isEmpty())
                .as("nothing it used was missing")
                .isTrue();
    }

    private List<String> deployed() {
        List<String> names = new ArrayList<>();
        api.get("/v1/strategies").json().forEach(s -> names.add(s.path("name").asString()));
        assertThat(names).contains("auto", "gam", "rag");
        return names;
    }

    @Test
    void theBudgetAndThePerStrategyOptionsReachThePick() {
        model.on("rag/answer").reply("{\"answer\": \"On Monday.\", \"evidence\": [], \"confidence\": 0.5}");

        JsonNode small =
                ask(withMemos, "When did Ines start at the observatory?", Map.of("budget", Map.of("maxCalls", 2)));

        assertThat(event(small, "auto.route").get("rule").asString()).isEqualTo("small-budget");
        assertThat(event(small, "auto.route")
                        .get("options")
                        .get("budget")
                        .get("maxCalls")
                        .asInt())
                .isEqualTo(2);
        assertThat(model.calls("rag/answer")).hasSize(1);

        model.reset();
        scriptGam();
        model.on("gam/reflect").reply("{\"enough\": false, \"followUps\": [\"which day exactly\"]}");
        JsonNode oneRound =
                ask(withMemos, "When did Ines start at the observatory?", Map.of("gam", Map.of("maxDepth", 1)));

        assertThat(oneRound.get("status").asString()).as(oneRound.toString()).isEqualTo("DONE");
        assertThat(model.calls("gam/plan"))
                .as("gam ran with the options given for it")
                .hasSize(1);
        assertThat(event(oneRound, "auto.route").get("options").get("maxDepth").asInt())
                .isEqualTo(1);
    }

    @Test
    void abstainAndBuildMemoriesReachThePickAndAPickThatStopsStillEndsInAnAnswer() {
        model.on("rag/answer").reply("{\"answer\": \"Not available.\", \"evidence\": [], \"confidence\": 0}");
        Map<String, Object> options = new java.util.LinkedHashMap<>();
        options.put("budget", Map.of("maxCalls", 2));
        options.put("abstain", true);
        options.put("buildMemories", false);

        JsonNode abstained = ask(withMemos, "When did Ines start at the observatory?", options);

        assertThat(abstained.get("status").asString()).as(abstained.toString()).isEqualTo("DONE");
        JsonNode passed = event(abstained, "auto.route").get("options");
        assertThat(passed.get("abstain").asBoolean()).isTrue();
        assertThat(passed.get("buildMemories").asBoolean()).isFalse();
        assertThat(model.calls("rag/answer").getFirst().system())
                .contains("say that the information is not available in the documents");

        model.reset();
        String cut = "{\"answer\": \"On Mon";
        model.on("rag/answer").cutOnce(cut).cutOnce(cut);
        // rag's own last resort gets nothing usable, so rag stops without an answer
        model.on("last-resort/answer").once("   ").reply("On Monday 4 March 2024.");

        JsonNode answer = ask(
                withMemos, "When did Ines start at the observatory?", Map.of("budget", Map.of("maxTokens", 19_000)));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(event(answer, "auto.route").get("chosen").asString()).isEqualTo("rag");
        assertThat(answer.get("answer").asString()).isEqualTo("On Monday 4 March 2024.");
        assertThat(answer.get("confidence").asDouble()).isEqualTo(io.lorekeeper.strategy.LastResort.CONFIDENCE);
        assertThat(model.calls("last-resort/answer")).hasSize(2);
        List<String> failed = new ArrayList<>();
        api.get("/v1/questions/" + answer.get("id").asString() + "/trace")
                .json()
                .get("events")
                .forEach(e -> {
                    if (e.get("type").asString().equals("step.failed")) {
                        failed.add(e.get("payload").get("step").asString());
                    }
                });
        assertThat(failed).containsExactly("answer", "rag");
        JsonNode degraded = answer.get("degraded");
        assertThat(degraded == null || degraded.isNull() || degraded.isEmpty())
                .as("auto answered itself: no fallback to the extractive strategy")
                .isTrue();
    }

    @Test
    void unknownOptionsAndBadOptionsOfAStrategyAreRefused() {
        Api.Response unknown = api.post(
                "/v1/questions",
                Map.of(
                        "documentIds",
                        List.of(withMemos),
                        "question",
                        "?",
                        "strategy",
                        "auto",
                        "options",
                        Map.of("k", 3)));
        assertThat(unknown.status()).isEqualTo(400);
        assertThat(unknown.json().get("field").asString()).isEqualTo("options.k");

        Api.Response bad = api.post(
                "/v1/questions",
                Map.of(
                        "documentIds",
                        List.of(withMemos),
                        "question",
                        "?",
                        "strategy",
                        "auto",
                        "options",
                        Map.of("gam", Map.of("maxDepth", 99))));
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.json().get("field").asString()).isEqualTo("options.gam.maxDepth");
    }

    private void scriptGam() {
        model.on("gam/plan")
                .reply("{\"informationNeeds\": [\"start date\"], \"keywordQueries\": [\"observatory start\"], "
                        + "\"vectorQueries\": [], \"pages\": []}");
        model.on("gam/integrate")
                .reply(
                        "{\"summary\": \"Ines started on Monday 4 March 2024.\", \"facts\": [{\"fact\": "
                                + "\"Ines started at the observatory on Monday 4 March 2024.\", \"sources\": [{\"doc\": 1, \"page\": 0}]}]}");
        model.on("gam/reflect").reply("{\"enough\": true, \"followUps\": []}");
        model.on("gam/answer")
                .reply("{\"answer\": \"On Monday 4 March 2024.\", \"evidence\": [], \"confidence\": 0.7}");
    }

    /** Ten sessions of long turns: far more than one retrieval shows. */
    private static Map<String, Object> conversation(String observatory) {
        TestDocuments.ConversationBuilder chat = aConversation()
                .titled(observatory + " diaries")
                .session(
                        "9:00 am on 2 March, 2024",
                        "Ines",
                        "I start at the " + observatory + " observatory on Monday, I am so nervous. " + filler(0),
                        "Tomas",
                        "Good luck! " + filler(1));
        for (int s = 1; s < 10; s++) {
            chat.session(
                    (s + 2) + ":00 pm on " + (s + 5) + " April, 2024",
                    "Ines",
                    "Another week of nights at the telescope. " + filler(s * 3),
                    "Tomas",
                    "The harbour was busy again today. " + filler(s * 3 + 1),
                    "Ines",
                    "We measured a comet. " + filler(s * 3 + 2));
        }
        return chat.build();
    }

    private static Map<String, Object> withProfile(Map<String, Object> document, String profile) {
        Map<String, Object> out = new java.util.LinkedHashMap<>(document);
        out.put("profile", profile);
        return out;
    }

    private static String filler(int seed) {
        String[] sentences = {
            "The weather turned cold and the roads were icy in the morning.",
            "My sister visited with her two children and we baked bread together.",
            "The library in town has a new section on the history of the coast.",
            "We walked along the cliffs and counted the seabirds nesting below.",
            "A neighbour lent us a ladder to fix the gutter before the storm.",
            "The train was late, so I read half a novel on the platform.",
            "There is a market on Saturdays where a farmer sells honey and cheese."
        };
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            out.append(sentences[(seed + i) % sentences.length]).append(' ');
        }
        return out.toString().strip();
    }

    private JsonNode ask(UUID document, String question, Map<String, Object> options) {
        return api.ask(
                Map.of("documentIds", List.of(document), "question", question, "strategy", "auto", "options", options));
    }

    private JsonNode event(JsonNode question, String type) {
        for (JsonNode e : api.get("/v1/questions/" + question.get("id").asString() + "/trace")
                .json()
                .get("events")) {
            if (e.get("type").asString().equals(type)) {
                return e.get("payload");
            }
        }
        throw new AssertionError("no " + type + " event in the trace of " + question);
    }
}
