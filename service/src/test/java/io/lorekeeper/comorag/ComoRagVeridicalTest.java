package io.lorekeeper.comorag;

import static io.lorekeeper.comorag.ComoRagFixtures.group;
import static io.lorekeeper.comorag.ComoRagFixtures.json;
import static io.lorekeeper.support.TestDocuments.aText;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
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

import io.lorekeeper.document.DocumentInfo;
import io.lorekeeper.document.Documents;
import io.lorekeeper.document.stage.StageRun;
import io.lorekeeper.llm.LlmGateway;
import io.lorekeeper.llm.ScriptedChatModel;
import io.lorekeeper.memory.Embeddings;
import io.lorekeeper.security.CurrentTenant;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.LlmIntegrationTest;
import tools.jackson.databind.JsonNode;

/**
 * ComoRAG's veridical layer as HippoRAG 2 builds and reads it, over a real index with scripted
 * builders and agents: the recognition-memory fact filter (its call, what it keeps, its fallbacks),
 * entity seeds through facts only, named-entity recognition before OpenIE, and the loop going on
 * when self-probe finds no new probe; each with the option that restores the earlier behaviour.
 */
@LlmIntegrationTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ComoRagVeridicalTest {

    static final String QUESTION = "Where does Adela live?";
    private static final Pattern V1 = Pattern.compile("<passage n=\"V1\"[^>]*>\\n(.*?)\\n</passage>", Pattern.DOTALL);
    private static final Pattern FACT_LINE = Pattern.compile("^(F\\d+)\\. \\((.*)\\)$", Pattern.MULTILINE);

    @Autowired
    Api api;

    @Autowired
    ScriptedChatModel model;

    @Autowired
    ComoRagStore store;

    @Autowired
    LlmGateway gateway;

    @Autowired
    Documents documents;

    @Autowired
    Embeddings embeddings;

    @Autowired
    ComoRagSettings settings;

    @Autowired
    GraphIndex graphs;

    UUID valley;

    @BeforeAll
    void ingest() {
        model.reset();
        ComoRagFixtures.scriptIndex(model);
        valley = ComoRagFixtures.ingestWithIndex(
                api,
                aText(ComoRagFixtures.chronicle(4) + "\n\nThe valley keeps its records in the chapel.")
                        .titled("Four chapters of the valley")
                        .build());
        model.reset();
    }

    @BeforeEach
    void reset() {
        model.reset();
    }

    @Test
    void theFactFilterAsksTheModelOncePerProbeAndOnlyTheFactsItKeepsSeedTheRanking() {
        model.on("comorag/fact-filter").reply(call -> keepFactsNaming(call, "adela"));

        JsonNode answer = ask(QUESTION, Map.of("maxCycles", 0));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        List<ScriptedChatModel.Call> filters = model.calls("comorag/fact-filter");
        assertThat(filters)
                .as("one call for the one probe (the question) of step 0")
                .hasSize(1);
        String prompt = filters.getFirst().user();
        assertThat(prompt).contains("<query>\n" + QUESTION + "\n</query>").contains("F1. (");
        assertThat(offered(prompt))
                .as("the linked facts are offered, the planted irrelevant ones among them")
                .anyMatch(f -> f.contains("Adela"))
                .anyMatch(f -> f.contains("Bartholomew"));

        JsonNode ranking = veridicalRanking(answer);
        assertThat(ranking.get("factFilter").get("method").asString()).isEqualTo("llm");
        assertThat(ranking.get("factFilter").has("fallback")).isFalse();
        for (JsonNode fact : ranking.get("linkedFacts")) {
            assertThat(fact.get("kept").asBoolean())
                    .as(fact.toString())
                    .isEqualTo(fact.get("fact").asString().contains("Adela"));
        }
        assertThat(seeds(ranking)).contains("adela").doesNotContain("bartholomew", "blackmere");
        assertThat(events(answer, "comorag.retrieve").getFirst().get("matchedFacts"))
                .extracting(JsonNode::asString)
                .containsExactly("Adela lives in Ashford");

        // the earlier behaviour: no call, the facts within 0.1 of the best one's similarity
        model.reset();
        JsonNode margin = ask(QUESTION, Map.of("maxCycles", 0, "factFilter", "margin"));
        assertThat(model.calls("comorag/fact-filter")).isEmpty();
        JsonNode byMargin = veridicalRanking(margin);
        assertThat(byMargin.get("factFilter").get("method").asString()).isEqualTo("margin");
        double best = 0;
        for (JsonNode fact : byMargin.get("linkedFacts")) {
            best = Math.max(best, fact.get("score").asDouble());
        }
        for (JsonNode fact : byMargin.get("linkedFacts")) {
            assertThat(fact.get("kept").asBoolean())
                    .as(fact.toString())
                    .isEqualTo(fact.get("score").asDouble() >= best - FactFilter.MARGIN - 1e-4);
        }
        System.out.println(
                "ComoRAG fact filter: llm " + ranking.get("linkedFacts") + " margin " + byMargin.get("linkedFacts"));
    }

    @Test
    void anImperfectFilterReplyKeepsWhatIsUsableAndAnUnusableOneFallsBackToTheMargin() {
        model.on("comorag/fact-filter")
                .reply(json(Map.of("relevant", List.of("F1", "F9", "the moon | is made of | cheese", "F1"))));

        JsonNode answer = ask(QUESTION, Map.of("maxCycles", 0));

        JsonNode ranking = veridicalRanking(answer);
        assertThat(ranking.get("factFilter").get("method").asString()).isEqualTo("llm");
        assertThat(ranking.get("factFilter").get("dropped"))
                .extracting(JsonNode::asString)
                .containsExactly("F9", "the moon | is made of | cheese");
        List<Boolean> kept = new ArrayList<>();
        ranking.get("linkedFacts").forEach(f -> kept.add(f.get("kept").asBoolean()));
        assertThat(kept.getFirst()).isTrue();
        assertThat(kept.subList(1, kept.size())).containsOnly(false);

        // prose that names no fact: nothing usable, so the margin rule decides and the trace says why
        model.reset();
        model.on("comorag/fact-filter").reply("I would rather not say which of these matter.");
        JsonNode prose = ask(QUESTION, Map.of("maxCycles", 0));
        JsonNode fallback = veridicalRanking(prose).get("factFilter");
        assertThat(fallback.get("method").asString()).isEqualTo("margin");
        assertThat(fallback.get("fallback").asString()).contains("named no fact");
        assertThat(model.calls("comorag/fact-filter")).hasSize(1);

        // a budget that cannot spare the call: the margin rule, said in the trace
        model.reset();
        model.on("comorag/fact-filter").reply(call -> keepFactsNaming(call, "adela"));
        // two calls, the last kept for the answer: the one research call left goes to the try, not the filter
        JsonNode poor = ask(QUESTION, Map.of("maxCycles", 0, "budget", Map.of("maxCalls", 2)));
        assertThat(poor.get("status").asString()).as(poor.toString()).isEqualTo("DONE");
        assertThat(model.calls("comorag/fact-filter")).isEmpty();
        assertThat(model.calls("comorag/answer")).hasSize(1);
        JsonNode spared = veridicalRanking(poor).get("factFilter");
        assertThat(spared.get("method").asString()).isEqualTo("margin");
        assertThat(spared.get("fallback").asString()).contains("budget");
    }

    @Test
    void withoutAModelTheRetrieverUsesTheMarginRule() {
        DocumentInfo info = documents.find(CurrentTenant.DEFAULT, valley).orElseThrow();
        TriRetriever retriever = new TriRetriever(
                store,
                null,
                List.of(info),
                documents::text,
                graphs::load,
                ComoRagOptions.GRAPH,
                FactFilter.marginOnly(),
                false);

        TriRetriever.LayerResult result =
                retriever.veridical(QUESTION, embeddings.query(QUESTION), 100_000, java.util.Set.of());

        assertThat(model.calls("comorag/fact-filter")).isEmpty();
        assertThat(result.ranking().factFilter().method()).isEqualTo("margin");
        assertThat(result.ranking().factFilter().fallback()).isNull();
        assertThat(result.ranking().linkedFacts()).isNotEmpty();
    }

    @Test
    void entitiesAreSeededThroughKeptFactsOnlyUnlessTheProbesOwnEntitiesAreAskedFor() {
        model.on("comorag/fact-filter").reply(json(Map.of("relevant", List.of())));

        JsonNode answer = ask(QUESTION, Map.of("maxCycles", 0));

        JsonNode ranking = veridicalRanking(answer);
        assertThat(ranking.get("linkedFacts"))
                .allSatisfy(f -> assertThat(f.get("kept").asBoolean()).isFalse());
        assertThat(ranking.get("fallback").asString())
                .as("no fact kept and no entity seeded: dense retrieval, as HippoRAG 2 falls back")
                .isEqualTo("dense: no linked fact kept");
        assertThat(ranking.has("seeds")).isFalse();

        model.reset();
        model.on("comorag/fact-filter").reply(json(Map.of("relevant", List.of())));
        JsonNode named = ask(QUESTION, Map.of("maxCycles", 0, "entitySeeds", true));
        JsonNode withNames = veridicalRanking(named);
        assertThat(withNames.has("fallback")).isFalse();
        assertThat(seeds(withNames)).as("the entity the probe names").contains("adela");
    }

    @Test
    void theTriplesStageNamesTheEntitiesFirstThenWritesTheFactsGivenThemOrDoesBothInOneCallWhenSetTo() {
        ComoRagFixtures.scriptIndex(model);
        UUID id = ComoRagFixtures.ingestWithIndex(
                api,
                aText(ComoRagFixtures.chronicle(3) + "\n\nThe ferry to the islands leaves at dawn.")
                        .titled("Three chapters and a ferry")
                        .build());
        int units = store.unitCount(id);
        List<ScriptedChatModel.Call> calls = model.calls();
        List<ScriptedChatModel.Call> ner = model.calls("comorag/ner");
        List<ScriptedChatModel.Call> triples = model.calls("comorag/triples");
        assertThat(ner).as("one NER call per unit").hasSize(units);
        assertThat(triples).as("then one OpenIE call per unit").hasSize(units);
        for (ScriptedChatModel.Call openie : triples) {
            String passage = passage(openie);
            ScriptedChatModel.Call named = ner.stream()
                    .filter(c -> passage(c).equals(passage))
                    .findFirst()
                    .orElseThrow();
            assertThat(calls.indexOf(named))
                    .as("the unit's NER call comes before its OpenIE call")
                    .isLessThan(calls.indexOf(openie));
            Matcher lives = Pattern.compile("(\\p{Lu}\\p{L}+) lives in (\\p{Lu}\\p{L}+)")
                    .matcher(passage);
            List<String> names = new ArrayList<>();
            while (lives.find()) {
                names.add("\"" + lives.group(1) + "\"");
                names.add("\"" + lives.group(2) + "\"");
            }
            String given = "[" + String.join(", ", names) + "]";
            assertThat(openie.user())
                    .as("the OpenIE step is given the entities the NER step named")
                    .contains("<entities>\n" + given + "\n</entities>");
        }
        assertThat(triples)
                .extracting(ScriptedChatModel.Call::user)
                .anyMatch(u -> u.contains("<entities>\n[\"Adela\", \"Ashford\""));

        // lorekeeper.comorag.triples.extraction: single, the earlier one call per unit
        TripleStage single = new TripleStage(
                store, gateway, documents, embeddings, settings, graphs, new TripleSettings(TripleSettings.SINGLE));
        single.reset(id);
        model.reset();
        ComoRagFixtures.scriptIndex(model);
        DocumentInfo info = documents.find(CurrentTenant.DEFAULT, id).orElseThrow();
        single.run(new StageRun() {
            @Override
            public DocumentInfo document() {
                return info;
            }

            @Override
            public void progress(int done, int total) {}
        });
        assertThat(model.calls("comorag/ner")).isEmpty();
        assertThat(model.calls("comorag/triples"))
                .hasSize(units)
                .allSatisfy(c -> assertThat(c.user()).contains("<entities>\n" + TripleStage.NO_ENTITIES_GIVEN));
        assertThat(store.unitsWithoutTriples(id)).isEmpty();
    }

    @Test
    void aSelfProbeWithNothingUsableLeavesTheCycleWithoutRetrievalAndTheNextCycleProbesAgain() {
        model.on("comorag/fact-filter").reply(call -> keepFactsNaming(call, "adela"));
        model.on("comorag/encode").reply(json(Map.of("findings", List.of("Adela lives in Ashford"))));
        model.on("comorag/fuse").reply(json(Map.of("history", "Adela lives in Ashford, by the old mill.")));
        model.on("comorag/probe")
                .once("")
                .once("")
                .once(json(Map.of("probes", List.of("Adela's workshop"))))
                .reply(json(Map.of("probes", List.of())));

        JsonNode answer = ask(QUESTION, Map.of("maxCycles", 2, "contextTokens", 1000), false);

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        List<String> loop = loopCalls();
        assertThat(loop.subList(0, 11))
                .as(
                        "cycle 1: a probe with nothing usable (and its repair), no retrieval, fuse and try; cycle 2 probes again")
                .containsExactly(
                        "comorag/fact-filter",
                        "comorag/answer",
                        "comorag/encode",
                        "comorag/encode",
                        "comorag/encode",
                        "comorag/probe",
                        "comorag/probe#repair",
                        "comorag/fuse",
                        "comorag/answer",
                        "comorag/probe",
                        "comorag/fact-filter");
        assertThat(loop.subList(11, loop.size() - 2))
                .as("an encode per layer with unseen evidence for the probe")
                .isNotEmpty()
                .containsOnly("comorag/encode");
        assertThat(loop.subList(loop.size() - 2, loop.size())).containsExactly("comorag/fuse", "comorag/answer");
        assertThat(events(answer, "step.failed"))
                .extracting(e -> e.get("step").asString())
                .containsExactly("probe");
        assertThat(events(answer, "comorag.stop")).isEmpty();
        assertThat(events(answer, "comorag.try-answer")).hasSize(3);
        assertThat(events(answer, "comorag.retrieve"))
                .extracting(e -> e.get("cycle").asInt())
                .as("step 0 and cycle 2 retrieve; cycle 1 has no probe")
                .containsOnly(0, 2);

        // noNewProbe: "stop", the earlier rule: the loop ends at the first cycle without a new probe
        model.reset();
        model.on("comorag/fact-filter").reply(call -> keepFactsNaming(call, "adela"));
        model.on("comorag/encode").reply(json(Map.of("findings", List.of("Adela lives in Ashford"))));
        model.on("comorag/probe").reply("");
        JsonNode stopped = ask(QUESTION, Map.of("maxCycles", 2, "contextTokens", 1000, "noNewProbe", "stop"), false);
        assertThat(loopCalls())
                .containsExactly(
                        "comorag/fact-filter",
                        "comorag/answer",
                        "comorag/encode",
                        "comorag/encode",
                        "comorag/encode",
                        "comorag/probe",
                        "comorag/probe#repair");
        assertThat(events(stopped, "comorag.stop").getFirst().get("reason").asString())
                .isEqualTo("self-probe found no new probe");
    }

    /** The filter's reply keeping the offered facts whose text contains {@code word}. */
    private static String keepFactsNaming(ScriptedChatModel.Call call, String word) {
        List<String> keep = new ArrayList<>();
        Matcher m = FACT_LINE.matcher(call.user());
        while (m.find()) {
            if (m.group(2).toLowerCase(java.util.Locale.ROOT).contains(word)) {
                keep.add(m.group(1));
            }
        }
        return json(Map.of("relevant", keep));
    }

    private static List<String> offered(String prompt) {
        List<String> facts = new ArrayList<>();
        Matcher m = FACT_LINE.matcher(prompt);
        while (m.find()) {
            facts.add(m.group(2));
        }
        return facts;
    }

    private static String passage(ScriptedChatModel.Call call) {
        return group(Pattern.compile("<passage>\\n(.*?)\\n</passage>", Pattern.DOTALL), call.user());
    }

    private static List<String> seeds(JsonNode ranking) {
        List<String> names = new ArrayList<>();
        if (ranking.has("seeds")) {
            ranking.get("seeds").forEach(s -> names.add(s.get("entity").asString()));
        }
        return names;
    }

    private JsonNode veridicalRanking(JsonNode answer) {
        return events(answer, "comorag.retrieve").stream()
                .filter(e -> e.get("layer").asString().equals("veridical"))
                .findFirst()
                .orElseThrow()
                .get("ranking");
    }

    /** The model calls of the question loop, in order (index stages of other documents left out). */
    private List<String> loopCalls() {
        return model.calls().stream()
                .map(ScriptedChatModel.Call::template)
                .filter(t -> t.startsWith("comorag/")
                        && !t.startsWith("comorag/ner")
                        && !t.startsWith("comorag/triples")
                        && !t.contains("summary"))
                .toList();
    }

    private JsonNode ask(String question, Map<String, Object> options) {
        return ask(question, options, true);
    }

    /** A question over the valley; try-answer succeeds at once, or always fails. */
    private JsonNode ask(String question, Map<String, Object> options, boolean succeed) {
        model.on("comorag/answer").reply(call -> {
            String quote = ComoRagFixtures.firstSentence(group(V1, call.user()));
            return json(Map.of(
                    "understanding",
                    "a chronicle",
                    "analysis",
                    "V1 bears on it",
                    "canAnswer",
                    succeed,
                    "answer",
                    quote,
                    "confidence",
                    succeed ? 0.8 : 0.3,
                    "evidence",
                    List.of(Map.of("item", "V1", "quote", quote))));
        });
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("documentIds", List.of(valley));
        request.put("question", question);
        request.put("strategy", "comorag");
        request.put("options", options);
        return api.ask(request);
    }

    private List<JsonNode> events(JsonNode question, String type) {
        return api.traceEvents(question, type);
    }
}
