package io.lorekeeper.comorag;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Array;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.lorekeeper.comorag.ComoRagStore.UnitKey;
import io.lorekeeper.document.DocumentInfo;
import io.lorekeeper.document.DocumentKind;
import io.lorekeeper.document.DocumentStatus;
import io.lorekeeper.document.Documents;
import io.lorekeeper.evaluator.Datasets;
import io.lorekeeper.evaluator.EvalItem;
import io.lorekeeper.llm.FakeOpenAi;
import io.lorekeeper.llm.FakeOpenAiTest;
import io.lorekeeper.memory.Embeddings;
import io.lorekeeper.retrieval.Retriever;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.SharedData;

/**
 * Evidence recall of the veridical layer's two rankings, {@code graph} (personalised PageRank over
 * the entity–fact–passage graph) and {@code fusion} (reciprocal-rank fusion of units by vector, by
 * fact and by name), with plain dense similarity of the units beside them, over the same LoCoMo
 * questions (the three conversations of /work/shared/data, categories 1-4, gold evidence turns
 * that exist). Each conversation is uploaded with the {@code deep} profile through the service,
 * whose model is {@link ReadingStandIn}: its triples pair the names a sentence states, so this
 * measures the graph machinery on name co-occurrence facts, not the retrieval an LLM's triples
 * would give. For each question (the first Tri-Retrieve, before any probe): the share of its gold
 * turns inside the top 5 and top 10 units, and inside the units the default 3,692-token veridical
 * share takes. Prints the table docs/benchmarks.md quotes. Run with
 * {@code -Dlorekeeper.measure.comorag-modes=true}.
 */
@FakeOpenAiTest
@EnabledIfSystemProperty(named = "lorekeeper.measure.comorag-modes", matches = "true")
class VeridicalModesRecallTest {

    private static final int BUDGET = 3692;
    private static final List<Integer> KS = List.of(5, 10);
    private static final Set<String> CATEGORIES = Set.of("1", "2", "3", "4");

    @Autowired
    Api api;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    ComoRagStore store;

    @Autowired
    GraphIndex graphs;

    @Autowired
    Retriever retriever;

    @Autowired
    Documents documents;

    @Autowired
    Embeddings embeddings;

    private final FakeOpenAi fake = FakeOpenAi.get();

    /** Sums of per-question recall, by mode and cut-off, and of the units the budget took. */
    private final Map<String, double[]> sums = new LinkedHashMap<>();

    /** Per "category mode": the sum of recall@10 and the number of questions. */
    private final Map<String, double[]> byCategory = new java.util.TreeMap<>();

    @Test
    void measureEvidenceRecallOfGraphAndFusion() {
        Path locomo = SharedData.require("locomo/locomo10_dev3.json");
        List<EvalItem> items = Datasets.load("locomo", locomo, 0);
        ReadingStandIn.install(fake);
        Map<String, List<EvalItem>> byConversation = new LinkedHashMap<>();
        items.forEach(i -> byConversation
                .computeIfAbsent(i.documentKey(), k -> new ArrayList<>())
                .add(i));
        int questions = 0;
        int goldTurns = 0;
        int droppedTurns = 0;
        double pagerankMs = 0;
        int pageranks = 0;
        int fallbacks = 0;
        for (List<EvalItem> conversation : byConversation.values()) {
            Map<String, Object> body =
                    new LinkedHashMap<>(conversation.getFirst().document());
            body.put("profile", "deep");
            long started = System.nanoTime();
            Api.Response posted = api.post("/v1/documents", body);
            UUID doc = UUID.fromString(posted.json().get("id").asString());
            api.awaitDocument(doc, "READY", Duration.ofMinutes(30));
            ComoRagFixtures.awaitStages(api, doc, "DONE");
            Map<Integer, Set<String>> turnsOf = turnsByUnit(doc);
            Set<String> turns = new HashSet<>();
            turnsOf.values().forEach(turns::addAll);
            EntityGraph graph = store.graph(doc).orElseThrow();
            System.out.printf(
                    "ComoRAG modes: %s, %d units, %d entities, %d fact and %d synonym edges, index in %.0f s%n",
                    conversation.getFirst().documentKey(),
                    turnsOf.size(),
                    graph.entityCount(),
                    graph.edges(EntityGraph.FACT).size(),
                    graph.edges(EntityGraph.SYNONYM).size(),
                    (System.nanoTime() - started) / 1e9);
            DocumentInfo info = new DocumentInfo(
                    doc,
                    UUID.randomUUID(),
                    "conversation",
                    DocumentKind.CONVERSATION,
                    "deep",
                    DocumentStatus.READY,
                    1,
                    1,
                    0);
            Map<String, TriRetriever> modes = new LinkedHashMap<>();
            for (String mode : List.of(ComoRagOptions.GRAPH, ComoRagOptions.FUSION)) {
                modes.put(
                        mode,
                        new TriRetriever(
                                store,
                                retriever,
                                List.of(info),
                                documents::text,
                                graphs::load,
                                mode,
                                FactFilter.marginOnly(),
                                false));
            }
            // the earlier seeds: the entities the question names and those close to it by name embedding
            modes.put(
                    "graph+names",
                    new TriRetriever(
                            store,
                            retriever,
                            List.of(info),
                            documents::text,
                            graphs::load,
                            ComoRagOptions.GRAPH,
                            FactFilter.marginOnly(),
                            true));
            for (EvalItem item : conversation) {
                if (!CATEGORIES.contains(item.category())) {
                    continue;
                }
                Set<String> gold = new HashSet<>(item.evidence());
                droppedTurns += gold.size();
                gold.retainAll(turns);
                droppedTurns -= gold.size();
                if (gold.isEmpty()) {
                    continue;
                }
                questions++;
                goldTurns += gold.size();
                float[] vector = embeddings.query(item.question());
                for (Map.Entry<String, TriRetriever> mode : modes.entrySet()) {
                    TriRetriever.LayerResult all =
                            mode.getValue().veridical(item.question(), vector, 1_000_000, Set.of());
                    List<Integer> ranked = ordinals(all.items());
                    List<Integer> budgeted = ordinals(mode.getValue()
                            .veridical(item.question(), vector, BUDGET, Set.of())
                            .items());
                    record(mode.getKey(), item.category(), ranked, budgeted, gold, turnsOf);
                    if (all.ranking() != null && all.ranking().pagerankMs() != null) {
                        pagerankMs += all.ranking().pagerankMs();
                        pageranks++;
                    }
                    if (all.ranking() != null && all.ranking().fallback() != null) {
                        fallbacks++;
                    }
                }
                List<Integer> dense = store.nearestUnits(List.of(doc), vector, 20, Set.<UnitKey>of()).stream()
                        .map(s -> s.item().ordinal())
                        .toList();
                List<Integer> denseBudgeted = new ArrayList<>();
                int used = 0;
                for (var s : store.nearestUnits(List.of(doc), vector, 20, Set.<UnitKey>of())) {
                    if (used + s.item().tokens() <= BUDGET) {
                        used += s.item().tokens();
                        denseBudgeted.add(s.item().ordinal());
                    }
                }
                record("dense", item.category(), dense, denseBudgeted, gold, turnsOf);
            }
        }
        System.out.printf(
                "ComoRAG modes: %d questions (LoCoMo categories 1-4), %d gold turns (%d ids left out: no such turn);"
                        + " PageRank %.2f ms per question; graph mode fell back to dense ranking for %d questions%n",
                questions, goldTurns, droppedTurns, pagerankMs / Math.max(1, pageranks), fallbacks);
        byCategory.forEach((key, s) -> System.out.printf(
                "ComoRAG modes, category %s: recall@10 %.3f over %d questions%n", key, s[0] / s[1], (int) s[1]));
        for (Map.Entry<String, double[]> e : sums.entrySet()) {
            double[] s = e.getValue();
            System.out.printf(
                    "ComoRAG modes: %-6s recall@5 %.3f, recall@10 %.3f, recall within %d tokens %.3f (%.1f units);"
                            + " all gold turns in the top 10: %.3f%n",
                    e.getKey(),
                    s[0] / questions,
                    s[1] / questions,
                    BUDGET,
                    s[2] / questions,
                    s[3] / questions,
                    s[4] / questions);
        }
        assertThat(questions).isGreaterThan(100);
        assertThat(sums.get("graph")[1]).isPositive();
    }

    private void record(
            String mode,
            String category,
            List<Integer> ranked,
            List<Integer> budgeted,
            Set<String> gold,
            Map<Integer, Set<String>> turns) {
        double[] c = byCategory.computeIfAbsent(category + " " + mode, m -> new double[2]);
        c[0] += recall(ranked.subList(0, Math.min(10, ranked.size())), gold, turns);
        c[1]++;
        double[] s = sums.computeIfAbsent(mode, m -> new double[5]);
        for (int i = 0; i < KS.size(); i++) {
            s[i] += recall(ranked.subList(0, Math.min(KS.get(i), ranked.size())), gold, turns);
        }
        s[2] += recall(budgeted, gold, turns);
        s[3] += budgeted.size();
        s[4] += recall(ranked.subList(0, Math.min(10, ranked.size())), gold, turns) == 1.0 ? 1 : 0;
    }

    private static double recall(List<Integer> units, Set<String> gold, Map<Integer, Set<String>> turns) {
        Set<String> hit = new HashSet<>();
        units.forEach(u -> hit.addAll(turns.getOrDefault(u, Set.of())));
        return gold.stream().filter(hit::contains).count() / (double) gold.size();
    }

    private static List<Integer> ordinals(List<Evidence> items) {
        return items.stream().map(e -> e.units().getFirst()).toList();
    }

    /** The turn ids of each unit, through the chunks it is made of. */
    private Map<Integer, Set<String>> turnsByUnit(UUID doc) {
        Map<Integer, Set<String>> out = new HashMap<>();
        jdbc.sql("""
                        SELECT u.ordinal, c.turn_ids FROM comorag_unit u
                        JOIN chunk c ON c.document_id = u.document_id AND c.ordinal BETWEEN u.first_chunk AND u.last_chunk
                        WHERE u.document_id = ?""").param(doc).query(rs -> {
            Set<String> ids = out.computeIfAbsent(rs.getInt(1), k -> new HashSet<>());
            Array array = rs.getArray(2);
            if (array != null) {
                for (Object id : (Object[]) array.getArray()) {
                    ids.add(String.valueOf(id));
                }
            }
        });
        return out;
    }
}
