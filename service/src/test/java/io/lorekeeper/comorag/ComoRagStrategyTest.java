package io.lorekeeper.comorag;

import static io.lorekeeper.comorag.ComoRagFixtures.group;
import static io.lorekeeper.comorag.ComoRagFixtures.json;
import static io.lorekeeper.support.TestDocuments.aText;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;

import io.lorekeeper.llm.ScriptedChatModel;
import io.lorekeeper.strategy.LastResort;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.LlmIntegrationTest;
import tools.jackson.databind.JsonNode;

/**
 * ComoRAG's question loop over a real index (built by the stages with scripted builders), driven
 * by scripted agents: the calls the algorithm prescribes and their order, what every prompt holds,
 * how the pool grows, the stopping rules, the ablations, and citations checked against the source.
 */
@LlmIntegrationTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ComoRagStrategyTest {

    static final String QUESTION = "Who received the brass compass that Adela found?";
    /** One unit, one semantic and one episodic item per retrieval: 615, 153, 153 and 76 tokens. */
    static final Map<String, Object> SMALL = Map.of("contextTokens", 1000);

    private static final Pattern V1 = Pattern.compile("<passage n=\"V1\"[^>]*>\\n(.*?)\\n</passage>", Pattern.DOTALL);
    private static final Pattern PROBE = Pattern.compile("^Probe: (.*)$", Pattern.MULTILINE);

    @Autowired
    Api api;

    @Autowired
    ScriptedChatModel model;

    UUID chronicle;
    String text;

    @BeforeAll
    void ingest() {
        model.reset();
        ComoRagFixtures.scriptIndex(model);
        text = ComoRagFixtures.chronicle();
        chronicle = ComoRagFixtures.ingestWithIndex(
                api, aText(text).titled("The chronicle of the valley").build());
        model.reset();
    }

    @BeforeEach
    void reset() {
        model.reset();
    }

    @Test
    void theIndexHasEnoughItemsInEveryLayerForTheseTests() {
        JsonNode answer = ask(QUESTION, SMALL, null, succeedAt(0));
        JsonNode index = events(answer, "comorag.index").getFirst();
        System.out.println("ComoRAG test index: " + index);
        assertThat(index.get("units").asInt()).isGreaterThanOrEqualTo(12);
        assertThat(index.get("unitsWithTriples").asInt())
                .isEqualTo(index.get("units").asInt());
        assertThat(index.get("triples").asInt()).isEqualTo(16);
        assertThat(index.get("semanticSummaries").asInt()).isGreaterThanOrEqualTo(4);
        assertThat(index.get("episodicSummaries").asInt()).isGreaterThanOrEqualTo(5);
    }

    @Test
    void anAnswerAtTheFirstTryCostsOneCall() {
        JsonNode answer = ask(QUESTION, Map.of(), null, succeedAt(0));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(questionCalls()).extracting(ScriptedChatModel.Call::template).containsExactly("comorag/answer");
        String prompt = questionCalls().getFirst().user();
        assertThat(prompt)
                .contains("<passage n=\"V1\"")
                .contains("<summary n=\"S1\"")
                .contains("<summary n=\"E1\"")
                .contains("<notes>\n(none yet)\n</notes>")
                .contains("Question: " + QUESTION);
        assertThat(answer.get("answer").asString()).isEqualTo(ComoRagFixtures.firstSentence(group(V1, prompt)));
        assertCitationsAreSource(answer, 1);
        assertThat(events(answer, "comorag.retrieve"))
                .extracting(e -> e.get("layer").asString())
                .containsExactly("veridical", "semantic", "episodic");
        JsonNode verdict = events(answer, "comorag.try-answer").getFirst();
        assertThat(verdict.get("verdict").asString()).isEqualTo("answered");
        assertThat(verdict.get("context").get("tokens").get("veridical").asInt())
                .isBetween(1, 3692);
        assertThat(events(answer, "comorag.memory-encode")).isEmpty();
        assertThat(events(answer, "comorag.answer").getFirst().get("outcome").asString())
                .isEqualTo("answered");
    }

    @Test
    void aFailedFirstTryThenSuccessInCycleTwoRunsExactlyTheCallsOfTheAlgorithm() {
        model.on("comorag/probe")
                .once(json(Map.of("probes", List.of("Adela's winter discovery", "the stranger in the grey coat"))))
                .once(json(Map.of("probes", List.of("the journey to Bartholomew"))));
        scriptEncodeAndFuse();

        JsonNode answer = ask(QUESTION, SMALL, null, succeedAt(2));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        // Step 0: try, encode the question's evidence (3 layers); cycle 1: probe (2 probes), 6 encodes, fuse, try;
        // cycle 2: probe (1 probe), 3 encodes, fuse, try. Encodes of one step run concurrently, hence counted as a run.
        assertThat(runs())
                .containsExactly(
                        "comorag/answer x1",
                        "comorag/encode x3",
                        "comorag/probe x1",
                        "comorag/encode x6",
                        "comorag/fuse x1",
                        "comorag/answer x1",
                        "comorag/probe x1",
                        "comorag/encode x3",
                        "comorag/fuse x1",
                        "comorag/answer x1");
        assertThat(questionCalls()).hasSize(19);

        List<ScriptedChatModel.Call> encodes = model.calls("comorag/encode");
        assertThat(encodes.subList(0, 3)).allSatisfy(c -> assertThat(probeOf(c)).isEqualTo(QUESTION));
        assertThat(encodes.subList(3, 9))
                .extracting(ComoRagStrategyTest::probeOf)
                .containsExactlyInAnyOrder(
                        "Adela's winter discovery",
                        "Adela's winter discovery",
                        "Adela's winter discovery",
                        "the stranger in the grey coat",
                        "the stranger in the grey coat",
                        "the stranger in the grey coat");
        assertThat(encodes.subList(9, 12))
                .allSatisfy(c -> assertThat(probeOf(c)).isEqualTo("the journey to Bartholomew"));

        List<ScriptedChatModel.Call> probes = model.calls("comorag/probe");
        assertThat(probes.get(0).user())
                .contains("1. " + QUESTION)
                .doesNotContain("2. ")
                .contains("finding for " + QUESTION + " from veridical");
        assertThat(probes.get(1).user())
                .contains("1. " + QUESTION + "\n2. Adela's winter discovery\n3. the stranger in the grey coat")
                .as("the self-probe reads the cues of the last step only")
                .doesNotContain("finding for " + QUESTION)
                .contains("finding for the stranger in the grey coat from episodic");

        List<ScriptedChatModel.Call> fuses = model.calls("comorag/fuse");
        assertThat(count(fuses.get(0).user(), "<notes "))
                .as("half of a pool of 3, at least one")
                .isEqualTo(1);
        assertThat(count(fuses.get(1).user(), "<notes "))
                .as("half of a pool of 9")
                .isEqualTo(4);
        List<ScriptedChatModel.Call> tries = model.calls("comorag/answer");
        assertThat(tries.get(0).user()).contains("<notes>\n(none yet)\n</notes>");
        assertThat(tries.get(1).user()).contains("<notes>\nfused history 1\n</notes>");
        assertThat(tries.get(2).user()).contains("<notes>\nfused history 2\n</notes>");

        List<JsonNode> attempts = events(answer, "comorag.try-answer");
        assertThat(attempts)
                .extracting(a -> a.get("verdict").asString())
                .containsExactly("failed", "failed", "answered");
        Set<String> shown = new HashSet<>();
        for (JsonNode a : attempts) {
            for (String layer : List.of("veridical", "semantic", "episodic")) {
                assertThat(a.get("context").get(layer))
                        .as("every try sees something of " + layer)
                        .isNotEmpty();
                a.get("context")
                        .get(layer)
                        .forEach(id -> assertThat(shown.add(id.asString()))
                                .as("shown twice: " + id)
                                .isTrue());
            }
        }
        assertThat(events(answer, "comorag.memory-update"))
                .extracting(u -> u.get("poolSize").asInt())
                .containsExactly(3, 9);
        assertThat(events(answer, "comorag.memory-encode")).hasSize(12);
        assertThat(events(answer, "comorag.memory-fuse"))
                .extracting(f -> f.get("selected").size())
                .containsExactly(1, 4);
        List<JsonNode> retrieves = events(answer, "comorag.retrieve");
        assertThat(retrieves).hasSize(12);
        assertThat(retrieves.get(9).get("layer").asString()).isEqualTo("veridical");
        Set<String> pooledSource = new HashSet<>();
        Set<String> pooledSummaries = new HashSet<>();
        for (JsonNode unit : events(answer, "comorag.memory-encode")) {
            if (unit.get("cycle").asInt() < 2) {
                unit.get("evidence")
                        .forEach(e ->
                                (e.asString().startsWith("u:") ? pooledSource : pooledSummaries).add(e.asString()));
            }
        }
        assertThat(pooledSource).hasSizeGreaterThanOrEqualTo(3);
        assertThat(retrieves.get(9).get("excluded").asInt())
                .as("the source units in the pool")
                .isEqualTo(pooledSource.size());
        assertThat(retrieves.get(11).get("excluded").asInt())
                .as("the summaries in the pool")
                .isEqualTo(pooledSummaries.size());
        assertThat(events(answer, "comorag.answer").getFirst().get("cycle").asInt())
                .isEqualTo(2);
        assertCitationsAreSource(answer, 1);
    }

    @Test
    void theLoopStopsAfterFiveCyclesAndReturnsTheBestSupportedAttemptWithLowConfidence() {
        AtomicInteger n = new AtomicInteger();
        model.on("comorag/probe").reply(call -> json(Map.of("probes", List.of("angle number " + n.incrementAndGet()))));
        scriptEncodeAndFuse();

        JsonNode answer =
                ask(QUESTION, Map.of("contextTokens", 1000, "afterFailure", "tentative"), null, succeedAt(99));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(model.calls("comorag/answer")).hasSize(6);
        assertThat(model.calls("comorag/probe")).hasSize(5);
        assertThat(events(answer, "comorag.try-answer"))
                .extracting(a -> a.get("cycle").asInt())
                .containsExactly(0, 1, 2, 3, 4, 5);
        assertThat(events(answer, "comorag.stop")).isEmpty();
        JsonNode end = events(answer, "comorag.answer").getFirst();
        assertThat(end.get("outcome").asString()).isEqualTo("not-settled");
        assertThat(answer.get("confidence").asDouble()).isLessThanOrEqualTo(0.25);
        assertThat(answer.get("answer").asString())
                .as("a tentative answer backed by a verified quote")
                .isNotEqualTo(TryAnswer.NOT_SETTLED);
        assertCitationsAreSource(answer, 1);

        model.reset();
        AtomicInteger m = new AtomicInteger();
        model.on("comorag/probe").reply(call -> json(Map.of("probes", List.of("angle number " + m.incrementAndGet()))));
        scriptEncodeAndFuse();
        JsonNode signal = ask(QUESTION, SMALL, null, succeedAt(99));
        assertThat(model.calls("comorag/answer")).hasSize(6);
        assertThat(signal.get("answer").asString())
                .as("by default the paper's failure signal, not a tentative answer")
                .isEqualTo(TryAnswer.NOT_SETTLED);
        assertThat(signal.get("confidence").asDouble()).isZero();
        assertThat(signal.get("citations")).isEmpty();
        assertThat(events(signal, "comorag.answer").getFirst().get("outcome").asString())
                .isEqualTo("not-settled");
        assertThat(model.calls("last-resort/answer")).isEmpty();
    }

    @Test
    void anAnswerNoSourceSupportsIsNeverReturnedAsItIsTheLastResortAnswersOrTheLoopAbstainsWhenAsked() {
        model.on("comorag/answer")
                .reply(json(Map.of(
                        "canAnswer",
                        false,
                        "answer",
                        "Perhaps the king.",
                        "confidence",
                        0.4,
                        "evidence",
                        List.of(Map.of("item", "V1", "quote", "the king took the compass")))));
        model.on("comorag/probe").reply(json(Map.of("probes", List.of("the king"))));
        model.on("last-resort/answer").reply("The king, perhaps.");
        scriptEncodeAndFuse();

        JsonNode answer =
                ask(QUESTION, Map.of("contextTokens", 1000, "maxCycles", 1, "afterFailure", "tentative"), null, null);

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("answer").asString()).isEqualTo("The king, perhaps.");
        assertThat(answer.get("confidence").asDouble()).isEqualTo(LastResort.CONFIDENCE);
        assertThat(events(answer, "comorag.try-answer")
                        .getFirst()
                        .get("evidence")
                        .get(0)
                        .get("located")
                        .asBoolean())
                .isFalse();
        JsonNode resort = events(answer, "step.last-resort").getFirst();
        assertThat(resort.get("retrieved").asBoolean()).isFalse();
        assertThat(events(answer, "comorag.answer").getLast().get("outcome").asString())
                .isEqualTo("not-settled");
        String prompt = model.calls("last-resort/answer").getFirst().user();
        assertThat(prompt)
                .as("the pool's cues, the tries' tentative answers and the passages shown")
                .contains("finding for")
                .contains("A tentative answer: Perhaps the king.")
                .contains(ComoRagFixtures.firstSentence(
                        group(V1, model.calls("comorag/answer").getFirst().user())));

        model.reset();
        model.on("comorag/answer")
                .reply(json(Map.of(
                        "canAnswer",
                        false,
                        "answer",
                        "Perhaps the king.",
                        "confidence",
                        0.4,
                        "evidence",
                        List.of(Map.of("item", "V1", "quote", "the king took the compass")))));
        model.on("comorag/probe").reply(json(Map.of("probes", List.of("the king"))));
        scriptEncodeAndFuse();
        JsonNode abstained = ask(
                QUESTION,
                Map.of("contextTokens", 1000, "maxCycles", 1, "abstain", true, "afterFailure", "tentative"),
                null,
                null);
        assertThat(abstained.get("answer").asString()).isEqualTo(TryAnswer.NOT_SETTLED);
        assertThat(abstained.get("confidence").asDouble()).isZero();
        assertThat(abstained.get("citations")).isEmpty();
        assertThat(model.calls("last-resort/answer")).isEmpty();
    }

    @Test
    void aCutReplyAtEachStepCostsOnlyThatStepAndTheQuestionEndsInAnAnswer() {
        String cutAnswer = "{\"understanding\": \"a chron";
        model.on("comorag/answer").cutOnce(cutAnswer).cutOnce(cutAnswer);
        ScriptedChatModel.Script encode = model.on("comorag/encode");
        for (int i = 0; i < 6; i++) {
            encode.cutOnce("{\"findings\": [\"Adel");
        }
        String cutProbe = "{\"probes\": [\"the compa";
        model.on("comorag/probe").cutOnce(cutProbe).cutOnce(cutProbe);
        model.on("last-resort/answer").reply("Bartholomew.");

        // the earlier behaviour after failure: the last resort over what the loop saw; and the earlier rule that a
        // cycle without a new probe ends the loop (by default it goes on, see ComoRagVeridicalTest)
        JsonNode answer = ask(
                QUESTION,
                Map.of("contextTokens", 1000, "afterFailure", "tentative", "noNewProbe", "stop"),
                null,
                succeedAt(0));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(events(answer, "step.failed"))
                .extracting(e -> e.get("step").asString())
                .containsExactly("try-answer", "encode", "encode", "encode", "probe");
        assertThat(events(answer, "llm.truncated"))
                .extracting(e -> e.get("template").asString())
                .contains("comorag/answer", "comorag/encode", "comorag/probe");
        assertThat(events(answer, "comorag.stop").getFirst().get("reason").asString())
                .contains("no new probe");
        assertThat(answer.get("answer").asString()).isEqualTo("Bartholomew.");
        assertThat(answer.get("confidence").asDouble()).isEqualTo(LastResort.CONFIDENCE);
        assertThat(events(answer, "step.last-resort")
                        .getFirst()
                        .get("retrieved")
                        .asBoolean())
                .as("the passages the failed try was shown are the evidence")
                .isFalse();

        model.reset();
        model.on("comorag/probe").reply(json(Map.of("probes", List.of("the journey in autumn"))));
        model.on("comorag/encode").reply(call -> json(Map.of("findings", List.of("finding for " + probeOf(call)))));
        String cutFuse = "{\"history\": \"Adela";
        model.on("comorag/fuse").cutOnce(cutFuse).cutOnce(cutFuse);

        JsonNode fused = ask(QUESTION, SMALL, null, succeedAt(1));

        assertThat(fused.get("status").asString()).as(fused.toString()).isEqualTo("DONE");
        assertThat(events(fused, "step.failed"))
                .extracting(e -> e.get("step").asString())
                .containsExactly("fuse");
        assertThat(model.calls("comorag/answer").get(1).user()).contains("<notes>\n(none yet)\n</notes>");
        assertThat(events(fused, "comorag.answer").getLast().get("outcome").asString())
                .isEqualTo("answered");
    }

    @Test
    void theDeadlinePassingMidLoopStopsBeforeACycleThatWouldNotFinishAndAnswersFromTheTries() {
        model.on("comorag/probe")
                .delay(java.time.Duration.ofMillis(1500))
                .reply(call -> json(Map.of("probes", List.of("probe " + UUID.randomUUID()))));
        scriptEncodeAndFuse();

        JsonNode answer =
                ask(QUESTION, Map.of("contextTokens", 1000, "budget", Map.of("maxSeconds", 3)), null, succeedAt(99));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("budgetLimited").asBoolean()).isTrue();
        assertThat(model.calls("comorag/probe")).hasSizeLessThan(3);
        JsonNode budget = events(answer, "step.budget").getFirst();
        assertThat(budget.get("reason").asString()).contains("wall time");
        assertThat(events(answer, "comorag.answer").getLast().get("outcome").asString())
                .isEqualTo("budget");
        assertThat(answer.get("answer").asString())
                .as("the best-supported tentative answer: the latest of equally confident tries")
                .isEqualTo(events(answer, "comorag.try-answer")
                        .getLast()
                        .get("answer")
                        .asString());
        assertThat(events(answer, "run.fallback")).isEmpty();
    }

    @Test
    void anEmptyMemoryPoolStillEndsInAnAnswer() {
        model.on("comorag/answer")
                .reply(json(Map.of("canAnswer", false, "answer", "", "confidence", 0.1, "evidence", List.of())));
        model.on("last-resort/answer").reply("Adela kept it.");

        JsonNode answer =
                ask(QUESTION, Map.of("contextTokens", 1000, "maxCycles", 0, "afterFailure", "tentative"), null, null);

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("answer").asString()).isEqualTo("Adela kept it.");
        assertThat(answer.get("confidence").asDouble()).isEqualTo(LastResort.CONFIDENCE);
        assertThat(events(answer, "comorag.memory-encode")).isEmpty();
        assertThat(events(answer, "step.last-resort").getFirst().get("evidence").asInt())
                .isPositive();
        assertThat(answer.get("citations")).as("the passages the try was shown").isNotEmpty();
        assertCitationsAreSource(answer, answer.get("citations").size());
    }

    @Test
    void probesNeverRepeatTheQuestionOrEarlierProbesAndTheLoopStopsWhenNoneIsNewIfAskedTo() {
        model.on("comorag/probe")
                .once(json(Map.of(
                        "probes",
                        List.of(
                                "WHO received the brass compass that Adela found",
                                "the wax seal",
                                "The wax-seal!",
                                "the red notebook",
                                "the harvest festival",
                                "the old mill"))))
                .once(json(Map.of("probes", List.of("THE RED NOTEBOOK", "the ruling family"))))
                .once(json(Map.of("probes", List.of("the ruling family?", "  "))));
        scriptEncodeAndFuse();

        // noNewProbe: "stop", the earlier rule (by default a cycle without a new probe goes on to fuse and try)
        JsonNode answer = ask(QUESTION, Map.of("contextTokens", 1000, "noNewProbe", "stop"), null, succeedAt(99));

        List<JsonNode> probes = events(answer, "comorag.probe");
        assertThat(probes).hasSize(3);
        assertThat(probes.get(0).get("probes"))
                .extracting(JsonNode::asString)
                .containsExactly("the wax seal", "the red notebook", "the harvest festival");
        assertThat(probes.get(0).get("dropped"))
                .extracting(d -> d.get("reason").asString())
                .containsExactly(
                        "repeats an earlier probe", "repeats a probe of this reply", "over the limit of 3 probes");
        assertThat(probes.get(1).get("probes")).extracting(JsonNode::asString).containsExactly("the ruling family");
        assertThat(probes.get(1).get("dropped").get(0).get("probe").asString()).isEqualTo("THE RED NOTEBOOK");
        assertThat(probes.get(2).get("probes")).isEmpty();
        assertThat(events(answer, "comorag.stop").getFirst().get("reason").asString())
                .isEqualTo("self-probe found no new probe");
        Set<String> retrievedFor = new HashSet<>();
        events(answer, "comorag.retrieve")
                .forEach(r -> retrievedFor.add(r.get("probe").asString()));
        assertThat(retrievedFor)
                .containsExactlyInAnyOrder(
                        QUESTION, "the wax seal", "the red notebook", "the harvest festival", "the ruling family");
        assertThat(model.calls("comorag/answer"))
                .as("step 0 and cycles 1 and 2")
                .hasSize(3);
    }

    @Test
    void choicesReachOnlyTryAnswer() {
        List<String> choices = List.of("Zanzibar Quillfeather", "Bartholomew the clockmaker", "Nobody at all");
        model.on("comorag/probe").reply(json(Map.of("probes", List.of("the journey in autumn"))));
        scriptEncodeAndFuse();
        model.on("comorag/answer")
                .once(json(Map.of("canAnswer", false, "answer", "", "confidence", 0.2)))
                .reply(call -> json(Map.of(
                        "canAnswer",
                        true,
                        "answer",
                        "Bartholomew",
                        "choice",
                        1,
                        "confidence",
                        0.8,
                        "evidence",
                        List.of(Map.of(
                                "item", "V1", "quote", ComoRagFixtures.firstSentence(group(V1, call.user())))))));

        JsonNode answer = ask(QUESTION, SMALL, choices, null);

        assertThat(answer.get("choiceIndex").asInt()).isEqualTo(1);
        assertThat(answer.get("answer").asString()).isEqualTo("Bartholomew the clockmaker");
        assertThat(questionCalls().stream()
                        .map(ScriptedChatModel.Call::template)
                        .distinct())
                .contains("comorag/probe", "comorag/encode", "comorag/fuse", "comorag/answer");
        for (ScriptedChatModel.Call call : questionCalls()) {
            String prompt = call.system() + "\n" + call.user();
            for (String choice : choices) {
                if (call.template().equals("comorag/answer")) {
                    assertThat(prompt).contains(choice);
                } else {
                    assertThat(prompt).as(call.template()).doesNotContain(choice);
                }
            }
        }
    }

    @Test
    void aSpentBudgetReturnsTheBestAnswerSoFar() {
        model.on("comorag/probe").reply(json(Map.of("probes", List.of("the journey in autumn"))));
        scriptEncodeAndFuse();

        JsonNode answer =
                ask(QUESTION, Map.of("contextTokens", 1000, "budget", Map.of("maxCalls", 6)), null, succeedAt(99));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("budgetLimited").asBoolean()).isTrue();
        assertThat(questionCalls())
                .extracting(ScriptedChatModel.Call::template)
                .as(
                        "after the fact filter, the try and three encodes, a cycle of up to 15 calls does not fit the one call"
                                + " left before the answer's")
                .containsExactly("comorag/answer", "comorag/encode", "comorag/encode", "comorag/encode");
        assertThat(model.calls("comorag/fact-filter")).hasSize(1);
        assertThat(events(answer, "step.budget")).hasSize(1);
        assertThat(events(answer, "step.budget").getFirst().get("reason").asString())
                .contains("calls");
        assertThat(events(answer, "comorag.answer").getFirst().get("outcome").asString())
                .isEqualTo("budget");
        String tentative =
                events(answer, "comorag.try-answer").getFirst().get("answer").asString();
        assertThat(answer.get("answer").asString()).isEqualTo(tentative);
        assertThat(answer.get("confidence").asDouble()).isLessThanOrEqualTo(0.25);
        assertCitationsAreSource(answer, 1);
    }

    @Test
    void imperfectRepliesKeepWhatIsUsableAndSayWhatWasDropped() {
        scriptEncodeAndFuse();
        model.on("comorag/probe")
                .reply("Two more searches:\n1. the stranger in the grey coat\n2. the harvest festival");
        model.on("comorag/answer")
                .once(json(Map.of("canAnswer", false, "answer", "", "confidence", 0.1)))
                .reply(call -> {
                    String[] passages = passages(call.user());
                    String otherPassage = sentenceOnlyIn(passages[1], passages[0]);
                    String underSummary = summaryQuote(call.user());
                    List<Map<String, String>> evidence = new ArrayList<>();
                    evidence.add(Map.of("item", "V1", "quote", otherPassage)); // copied from V2, named V1
                    evidence.add(Map.of("item", "S1", "quote", underSummary)); // a summary quoting its member unit
                    evidence.add(Map.of("item", "V2", "quote", "a sentence nobody wrote"));
                    evidence.add(Map.of("item", "", "quote", "an item without a label"));
                    return json(Map.of(
                            "canAnswer", true, "answer", "Bartholomew", "confidence", 0.7, "evidence", evidence));
                });

        JsonNode answer = ask(QUESTION, Map.of("contextTokens", 2000), null, null);

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(model.calls("comorag/probe#repair"))
                .as("prose gets its one repair call")
                .hasSize(1);
        assertThat(events(answer, "comorag.probe").getFirst().get("probes"))
                .extracting(JsonNode::asString)
                .containsExactly("the stranger in the grey coat", "the harvest festival");
        assertThat(events(answer, "llm.plain-text")).isNotEmpty();
        assertThat(events(answer, "llm.dropped"))
                .anySatisfy(d -> assertThat(d.toString()).contains("evidence"));
        JsonNode verdict = events(answer, "comorag.try-answer").getLast();
        assertThat(verdict.get("evidence"))
                .extracting(e -> e.get("where").asString())
                .containsExactly(
                        "another source passage",
                        "a unit under the named summary",
                        "not found in any source passage shown");
        assertCitationsAreSource(answer, 2);
    }

    @Test
    void aReplyWithNothingUsableEndsOnlyItsOwnStep() {
        model.on("comorag/encode").reply("{\"findings\": {\"not\": \"a list\"}}");
        model.on("comorag/fuse").reply(json(Map.of("history", "fused")));
        model.on("comorag/probe").reply(json(Map.of("probes", List.of("the journey in autumn"))));

        JsonNode answer = ask(QUESTION, SMALL, null, succeedAt(1));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(events(answer, "comorag.try-answer").getLast().get("verdict").asString())
                .isEqualTo("answered");
        assertThat(model.calls("comorag/encode#repair"))
                .as("each unusable cue got its one repair")
                .hasSize(6);
        assertThat(events(answer, "step.failed"))
                .hasSize(6)
                .allSatisfy(e -> assertThat(e.get("step").asString()).isEqualTo("encode"));
        assertThat(events(answer, "comorag.memory-encode"))
                .hasSize(6)
                .allSatisfy(e -> assertThat(e.get("cue").asString()).startsWith("(no finding"));
        assertCitationsAreSource(answer, 1);
    }

    @Test
    void afterTheFirstStepTryAnswerReadsTheEncodedMemoryUnlessAskedForEvidenceOnly() {
        model.on("comorag/probe").reply(json(Map.of("probes", List.of("the journey in autumn"))));
        scriptEncodeAndFuse();

        JsonNode answer = ask(QUESTION, SMALL, null, succeedAt(1));

        List<ScriptedChatModel.Call> tries = model.calls("comorag/answer");
        assertThat(tries.get(0).user()).contains("Findings of this step's searches:\n(none)");
        assertThat(tries.get(1).user())
                .contains("<finding probe=\"the journey in autumn\" layer=\"veridical\" items=\"V1\">\n"
                        + "- finding for the journey in autumn from veridical\n</finding>")
                .contains("finding for the journey in autumn from episodic");
        List<JsonNode> attempts = events(answer, "comorag.try-answer");
        assertThat(attempts.get(0).get("reads").asString()).isEqualTo("evidence");
        assertThat(attempts.get(1).get("reads").asString()).isEqualTo("memory");
        assertThat(attempts.get(1).get("cues")).hasSize(3);
        assertThat(events(answer, "comorag.index").getFirst().get("tryAnswer").asString())
                .isEqualTo("memory");
        assertCitationsAreSource(answer, 1);

        model.reset();
        model.on("comorag/probe").reply(json(Map.of("probes", List.of("the journey in autumn"))));
        scriptEncodeAndFuse();
        JsonNode evidence = ask(QUESTION, Map.of("contextTokens", 1000, "tryAnswer", "evidence"), null, succeedAt(1));
        assertThat(model.calls("comorag/answer").get(1).user())
                .contains("Findings of this step's searches:\n(none)")
                .doesNotContain("<finding ");
        assertThat(events(evidence, "comorag.try-answer").get(1).get("reads").asString())
                .isEqualTo("evidence");
        assertCitationsAreSource(evidence, 1);
    }

    @Test
    void theVeridicalLayerRanksByPageRankOverTheGraphOrByFusionWhenAsked() {
        scriptEncodeAndFuse();
        JsonNode graph = ask(QUESTION, Map.of("contextTokens", 1000, "maxCycles", 0), null, succeedAt(0));
        JsonNode veridical = events(graph, "comorag.retrieve").getFirst();
        assertThat(veridical.get("layer").asString()).isEqualTo("veridical");
        assertThat(veridical.get("ranking").get("mode").asString()).isEqualTo("graph");
        assertThat(veridical.get("ranking").get("seeds")).isNotEmpty();
        assertThat(veridical.get("ranking").get("topPassages")).isNotEmpty();
        assertThat(veridical.get("ranking").has("pagerankMs")).isTrue();
        assertThat(events(graph, "comorag.index")
                        .getFirst()
                        .get("graph")
                        .get("factEdges")
                        .asInt())
                .isPositive();

        model.reset();
        JsonNode fusion =
                ask(QUESTION, Map.of("contextTokens", 1000, "maxCycles", 0, "veridical", "fusion"), null, succeedAt(0));
        assertThat(events(fusion, "comorag.retrieve")
                        .getFirst()
                        .get("ranking")
                        .get("mode")
                        .asString())
                .isEqualTo("fusion");
    }

    @Test
    void withoutTheMemoryWorkspaceAgentsReadEvidenceDirectly() {
        model.on("comorag/probe").reply(json(Map.of("probes", List.of("the journey in autumn"))));

        JsonNode answer = ask(QUESTION, Map.of("contextTokens", 1000, "memory", false), null, succeedAt(1));

        assertThat(questionCalls())
                .extracting(ScriptedChatModel.Call::template)
                .containsExactly("comorag/answer", "comorag/probe", "comorag/answer");
        String probePrompt = model.calls("comorag/probe").getFirst().user();
        assertThat(probePrompt).contains("<passage n=\"V1\"").doesNotContain("<notes");
        assertThat(model.calls("comorag/answer").get(1).user()).contains("<notes>\n(none yet)\n</notes>");
        List<JsonNode> attempts = events(answer, "comorag.try-answer");
        assertThat(attempts.get(1).get("context").get("veridical").get(0).asString())
                .isNotEqualTo(
                        attempts.get(0).get("context").get("veridical").get(0).asString());
    }

    @Test
    void withoutProbingEveryCycleSearchesWithTheQuestionForUnseenEvidence() {
        scriptEncodeAndFuse();

        JsonNode answer = ask(QUESTION, Map.of("contextTokens", 1000, "probing", false), null, succeedAt(1));

        // step 0's three encodes, then cycle 1's three (the question again, no self-probe call between them)
        assertThat(runs())
                .containsExactly("comorag/answer x1", "comorag/encode x6", "comorag/fuse x1", "comorag/answer x1");
        assertThat(model.calls("comorag/encode"))
                .allSatisfy(c -> assertThat(probeOf(c)).isEqualTo(QUESTION));
        List<JsonNode> retrieves = events(answer, "comorag.retrieve");
        assertThat(retrieves)
                .allSatisfy(r -> assertThat(r.get("probe").asString()).isEqualTo(QUESTION));
        assertThat(retrieves.get(3).get("items").get(0).get("id").asString())
                .isNotEqualTo(retrieves.get(0).get("items").get(0).get("id").asString());
    }

    @Test
    void aLayerCanBeLeftOutAndEncodingCanBeOneCallPerProbe() {
        model.on("comorag/probe").reply(json(Map.of("probes", List.of("the journey in autumn", "the old mill"))));
        model.on("comorag/encode-layers")
                .reply(call -> json(Map.of(
                        "veridical", List.of("v finding"), "semantic", List.of("s finding"), "episodic", List.of())));
        model.on("comorag/fuse").reply(json(Map.of("history", "fused")));

        JsonNode answer = ask(
                QUESTION,
                Map.of("contextTokens", 1000, "layers", List.of("veridical", "semantic"), "encode", "per-probe"),
                null,
                succeedAt(1));

        assertThat(runs())
                .containsExactly(
                        "comorag/answer x1",
                        "comorag/encode-layers x1",
                        "comorag/probe x1",
                        "comorag/encode-layers x2",
                        "comorag/fuse x1",
                        "comorag/answer x1");
        assertThat(events(answer, "comorag.retrieve"))
                .extracting(r -> r.get("layer").asString())
                .doesNotContain("episodic");
        assertThat(model.calls("comorag/answer").getFirst().user()).contains("Plot summaries:\n(nothing retrieved)");
        assertThat(events(answer, "comorag.memory-encode"))
                .extracting(e -> e.get("layer").asString() + ":" + e.get("cue").asString())
                .containsExactly(
                        "veridical:- v finding",
                        "semantic:- s finding",
                        "veridical:- v finding",
                        "semantic:- s finding",
                        "veridical:- v finding",
                        "semantic:- s finding");
    }

    @Test
    void unknownOrInvalidOptionsAreRefusedNamingTheField() {
        Api.Response response = api.post(
                "/v1/questions",
                Map.of(
                        "documentIds",
                        List.of(chronicle),
                        "question",
                        "?",
                        "strategy",
                        "comorag",
                        "options",
                        Map.of("split", List.of(8, 2))));
        assertThat(response.status()).isEqualTo(400);
        assertThat(response.json().get("field").asString()).isEqualTo("options.split");
    }

    // ---------------------------------------------------------------- helpers

    /** Try-Answer fails (with a tentative answer quoting V1) until the given cycle, then answers, quoting V1. */
    private java.util.function.Function<ScriptedChatModel.Call, String> succeedAt(int cycle) {
        AtomicInteger tries = new AtomicInteger();
        return call -> {
            boolean success = tries.getAndIncrement() >= cycle;
            String quote = ComoRagFixtures.firstSentence(group(V1, call.user()));
            return json(Map.of(
                    "understanding",
                    "a chronicle",
                    "analysis",
                    "V1 bears on it",
                    "canAnswer",
                    success,
                    "answer",
                    quote,
                    "confidence",
                    success ? 0.8 : 0.3,
                    "evidence",
                    List.of(Map.of("item", "V1", "quote", quote))));
        };
    }

    /**
     * Mem-fuse reads the notes whose cues lie closest to the question, not any half of the pool: a cue
     * that restates the question reaches it, cues about something else do not.
     */
    @Test
    void memFuseReadsTheNotesWhoseCuesAreClosestToTheQuestion() {
        model.on("comorag/probe")
                .once(json(Map.of("probes", List.of("Adela's winter discovery", "the stranger in the grey coat"))))
                .once(json(Map.of("probes", List.of("the journey to Bartholomew"))));
        model.on("comorag/encode").reply(call -> {
            String probe = probeOf(call);
            String finding = probe.equals("the stranger in the grey coat")
                            && layerOf(call).equals("episodic")
                    ? QUESTION
                    : probe.equals("Adela's winter discovery")
                            ? "The price of wool at the Leeds market rose in 1851."
                            : "finding for " + probe + " from " + layerOf(call);
            return json(Map.of("findings", List.of(finding)));
        });
        model.on("comorag/fuse").reply(json(Map.of("history", "fused")));

        JsonNode answer = ask(QUESTION, SMALL, null, succeedAt(2));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        // The second fusion reads 4 of the 9 notes: step 0's three and cycle 1's six.
        Matcher notes = Pattern.compile("<notes probe=\"([^\"]*)\" layer=\"([a-z]+)\">\\n([^<]*)\\n</notes>")
                .matcher(model.calls("comorag/fuse").get(1).user());
        List<String> fused = new ArrayList<>();
        while (notes.find()) {
            fused.add(notes.group(1) + " / " + notes.group(2) + ": "
                    + notes.group(3).strip());
        }
        assertThat(fused)
                .hasSize(4)
                .contains("the stranger in the grey coat / episodic: - " + QUESTION)
                .noneMatch(note -> note.contains("wool"));
    }

    private void scriptEncodeAndFuse() {
        model.on("comorag/encode")
                .reply(call ->
                        json(Map.of("findings", List.of("finding for " + probeOf(call) + " from " + layerOf(call)))));
        AtomicInteger fused = new AtomicInteger();
        model.on("comorag/fuse").reply(call -> json(Map.of("history", "fused history " + fused.incrementAndGet())));
    }

    private static String probeOf(ScriptedChatModel.Call call) {
        return group(PROBE, call.user()).strip();
    }

    private static String layerOf(ScriptedChatModel.Call call) {
        return call.system().contains("returned: source passages")
                ? "veridical"
                : call.system().contains("returned: thematic summaries") ? "semantic" : "episodic";
    }

    private static String[] passages(String prompt) {
        Matcher m = Pattern.compile("<passage n=\"V\\d+\"[^>]*>\\n(.*?)\\n</passage>", Pattern.DOTALL)
                .matcher(prompt);
        List<String> out = new ArrayList<>();
        while (m.find()) {
            out.add(m.group(1));
        }
        return out.toArray(String[]::new);
    }

    /** The first sentence of {@code passage} that {@code other} does not hold (chapters share some sentences). */
    private static String sentenceOnlyIn(String passage, String other) {
        for (String sentence : passage.split("(?<=\\.) ")) {
            if (sentence.endsWith(".") && !other.contains(sentence.strip())) {
                return sentence.strip();
            }
        }
        throw new AssertionError("no sentence of V2 that V1 lacks");
    }

    /** The scripted summaries quote their first member's first sentence after "Theme: ". */
    private static String summaryQuote(String prompt) {
        String s1 = group(Pattern.compile("<summary n=\"S1\">\\n(.*?)\\n</summary>", Pattern.DOTALL), prompt);
        return ComoRagFixtures.firstSentence(s1.replaceFirst("^(Theme: )+", ""));
    }

    private JsonNode ask(
            String question,
            Map<String, Object> options,
            List<String> choices,
            java.util.function.Function<ScriptedChatModel.Call, String> answerer) {
        if (answerer != null) {
            model.on("comorag/answer").reply(answerer);
        }
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("documentIds", List.of(chronicle));
        request.put("question", question);
        request.put("strategy", "comorag");
        request.put("options", options);
        if (choices != null) {
            request.put("choices", choices);
        }
        return api.ask(request);
    }

    /** The templates called, consecutive repeats counted: "comorag/encode x3". */
    /**
     * The model calls of answering: the ComoRAG question-time prompts. Enrichment stages of documents
     * ingested in this shared context (GAM page headers and their retries) may call the model at any
     * time, and are not what these tests count.
     */
    private List<ScriptedChatModel.Call> questionCalls() {
        return model.calls().stream()
                .filter(c -> QUESTION_TIME.contains(c.template()))
                .toList();
    }

    private static final java.util.Set<String> QUESTION_TIME = java.util.Set.of(
            "comorag/answer", "comorag/encode", "comorag/encode-layers", "comorag/fuse", "comorag/probe");

    private List<String> runs() {
        List<String> out = new ArrayList<>();
        String current = null;
        int n = 0;
        for (ScriptedChatModel.Call call : questionCalls()) {
            if (call.template().equals(current)) {
                n++;
                continue;
            }
            if (current != null) {
                out.add(current + " x" + n);
            }
            current = call.template();
            n = 1;
        }
        if (current != null) {
            out.add(current + " x" + n);
        }
        return out;
    }

    private void assertCitationsAreSource(JsonNode answer, int expected) {
        assertThat(answer.get("citations")).hasSize(expected);
        for (JsonNode c : answer.get("citations")) {
            assertThat(text.substring(c.get("start").asInt(), c.get("end").asInt()))
                    .isEqualTo(c.get("quote").asString());
        }
    }

    private static int count(String text, String needle) {
        int n = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }

    private List<JsonNode> events(JsonNode question, String type) {
        return api.traceEvents(question, type);
    }
}
