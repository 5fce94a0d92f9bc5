package io.lorekeeper.comorag;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.lorekeeper.comorag.ComoRagStore.ChunkRow;
import io.lorekeeper.platform.ApiProblem;
import io.lorekeeper.strategy.QuestionOptions;

/** The pure parts of ComoRAG: window sizes, units, clusters, options, the workspace, and replies in prose. */
class ComoRagUnitTest {

    @Test
    void theEpisodicWindowFollowsThePapersTable() {
        // stepped sizes up to 200 units, at both ends of each step
        assertThat(EpisodicWindows.size(1)).isEqualTo(3);
        assertThat(EpisodicWindows.size(20)).isEqualTo(3);
        assertThat(EpisodicWindows.size(21)).isEqualTo(5);
        assertThat(EpisodicWindows.size(50)).isEqualTo(5);
        assertThat(EpisodicWindows.size(51)).isEqualTo(8);
        assertThat(EpisodicWindows.size(100)).isEqualTo(8);
        assertThat(EpisodicWindows.size(101)).isEqualTo(10);
        assertThat(EpisodicWindows.size(200)).isEqualTo(10);
        // then min(20, max(10, floor(2 log2 N)))
        assertThat(EpisodicWindows.size(201)).isEqualTo(15); // 2 * 7.65 = 15.3
        assertThat(EpisodicWindows.size(255)).isEqualTo(15); // 2 * 7.99
        assertThat(EpisodicWindows.size(256)).isEqualTo(16); // exactly 2 * 8
        assertThat(EpisodicWindows.size(490)).isEqualTo(17); // Great Expectations in 512-token units
        assertThat(EpisodicWindows.size(1023)).isEqualTo(19);
        assertThat(EpisodicWindows.size(1024)).isEqualTo(20);
        assertThat(EpisodicWindows.size(1_000_000)).isEqualTo(20);
        for (int n = 201; n < 5000; n++) {
            int expected = Math.min(20, Math.max(10, (int) Math.floor(2 * Math.log(n) / Math.log(2) + 1e-12)));
            assertThat(EpisodicWindows.size(n)).as("N = %d", n).isEqualTo(expected);
        }
    }

    @Test
    void windowsAreNonOverlappingByDefaultAndSlideWithAStride() {
        assertThat(EpisodicWindows.of(7, 3, 0)).containsExactly(List.of(0, 1, 2), List.of(3, 4, 5), List.of(6));
        assertThat(EpisodicWindows.of(6, 3, 0)).containsExactly(List.of(0, 1, 2), List.of(3, 4, 5));
        assertThat(EpisodicWindows.of(6, 3, 2)).containsExactly(List.of(0, 1, 2), List.of(2, 3, 4), List.of(4, 5));
        assertThat(EpisodicWindows.of(2, 3, 0)).containsExactly(List.of(0, 1));
        assertThat(EpisodicWindows.of(0, 3, 0)).isEmpty();
    }

    @Test
    void unitsAreRunsOfConsecutiveChunksOfOnePageWithinTheTokenLimit() {
        List<ChunkRow> chunks = List.of(
                chunk(0, 0, 200),
                chunk(1, 0, 250),
                chunk(2, 0, 100),
                chunk(3, 0, 300),
                chunk(4, 1, 50),
                chunk(5, 1, 600),
                chunk(6, 1, 10));

        List<List<ChunkRow>> units = UnitPacking.pack(chunks, 512);

        assertThat(units)
                .extracting(u -> u.stream().map(ChunkRow::ordinal).toList())
                .containsExactly(List.of(0, 1), List.of(2, 3), List.of(4), List.of(5), List.of(6));
    }

    @Test
    void semanticClustersAreDeterministicForAFixedSeedAndNeverTooLarge() {
        List<float[]> vectors = themes(5, 9, 42);

        List<List<Integer>> first = SemanticClusters.of(vectors, 10, 7, 0);
        for (int run = 0; run < 5; run++) {
            assertThat(SemanticClusters.of(new ArrayList<>(vectors), 10, 7, 0)).isEqualTo(first);
        }
        assertThat(first).allSatisfy(c -> assertThat(c.size()).isLessThanOrEqualTo(7));
        assertThat(first.stream().mapToInt(List::size).sum()).isEqualTo(45);
        assertThat(first).extracting(List::getFirst).isSorted();
        // points of one theme (i % 5) share a cluster far more often than chance
        int together = 0;
        int pairs = 0;
        for (List<Integer> cluster : first) {
            for (int a : cluster) {
                for (int b : cluster) {
                    if (a < b) {
                        pairs++;
                        together += a % 5 == b % 5 ? 1 : 0;
                    }
                }
            }
        }
        assertThat((double) together / pairs).isGreaterThan(0.9);
        boolean seedMatters = false;
        List<float[]> noisy = themes(1, 60, 7);
        List<List<Integer>> fixed = SemanticClusters.of(noisy, 10, 7, 0);
        assertThat(SemanticClusters.of(noisy, 10, 7, 0)).isEqualTo(fixed);
        for (long seed = 1; seed <= 20 && !seedMatters; seed++) {
            seedMatters = !SemanticClusters.of(noisy, 10, 7, seed).equals(fixed);
        }
        assertThat(seedMatters)
                .as("on unstructured points the seed decides, so stability comes from fixing it")
                .isTrue();
        assertThat(SemanticClusters.of(List.of(new float[] {1, 0}), 10, 7, 0)).containsExactly(List.of(0));
    }

    @Test
    void theGraphHoldsEntityFactPassageAndSynonymEdgesAndSurvivesSerialisation() {
        UUID doc = UUID.randomUUID();
        List<ComoRagStore.Fact> facts = List.of(
                new ComoRagStore.Fact(new ComoRagStore.UnitKey(doc, 0), "Pip", "meets", "Magwitch"),
                new ComoRagStore.Fact(new ComoRagStore.UnitKey(doc, 1), "Magwitch", "is", "the convict"),
                new ComoRagStore.Fact(new ComoRagStore.UnitKey(doc, 1), " MAGWITCH ", "sends", "money"),
                new ComoRagStore.Fact(new ComoRagStore.UnitKey(doc, 2), "Estella", "lives at", "Satis House"));
        List<GraphBuilder.UnitEntities> units = List.of(
                new GraphBuilder.UnitEntities(0, List.of("Pip", "Magwitch", "the marshes")),
                new GraphBuilder.UnitEntities(1, List.of("Magwitch")),
                new GraphBuilder.UnitEntities(2, List.of("Estella", "Satis House", "Miss Havisham")));
        // names embedded so that "the convict" and "magwitch" are near (cosine 0.9) and nothing else is
        Map<String, float[]> vectors = Map.of(
                "pip", new float[] {1, 0, 0, 0, 0},
                "magwitch", new float[] {0, 1, 0, 0, 0},
                "the convict", new float[] {0, 0.9f, 0.436f, 0, 0},
                "money", new float[] {0, 0, 0, 1, 0},
                "estella", new float[] {0, 0, 0, 0, 1},
                "satis house", new float[] {0.5f, 0, 0, 0.5f, 0.5f},
                "the marshes", new float[] {0.6f, 0, 0, -0.6f, 0},
                "miss havisham", new float[] {0, 0, -1, 0, 0});

        EntityGraph g = GraphBuilder.build(
                        units, facts, names -> names.stream().map(vectors::get).toList(), 0.8)
                .graph();

        assertThat(g.entities())
                .containsExactlyInAnyOrder(
                        "pip",
                        "magwitch",
                        "the convict",
                        "money",
                        "estella",
                        "satis house",
                        "the marshes",
                        "miss havisham");
        assertThat(g.unitCount()).isEqualTo(3);
        assertThat(names(g, EntityGraph.FACT))
                .containsExactlyInAnyOrder(
                        "pip-magwitch", "magwitch-the convict", "magwitch-money", "estella-satis house");
        assertThat(names(g, EntityGraph.SYNONYM)).containsExactly("magwitch-the convict");
        assertThat(names(g, EntityGraph.PASSAGE))
                .containsExactlyInAnyOrder(
                        "pip-u0",
                        "magwitch-u0",
                        "the marshes-u0",
                        "magwitch-u1",
                        "the convict-u1",
                        "money-u1",
                        "estella-u2",
                        "satis house-u2",
                        "miss havisham-u2");
        assertThat(g.passageCount(g.entityNode("Magwitch"))).isEqualTo(2);

        EntityGraph back = EntityGraph.deserialise(g.serialise());
        assertThat(back.entities()).isEqualTo(g.entities());
        for (byte kind : new byte[] {EntityGraph.FACT, EntityGraph.PASSAGE, EntityGraph.SYNONYM}) {
            assertThat(back.edges(kind)).isEqualTo(g.edges(kind));
        }
    }

    @Test
    void pageRankFromOneEntityReachesPassagesTwoHopsAwayBeforeUnrelatedOnes() {
        // u0: Adela wrote to the keeper; u1: the keeper is Desmond; u2..u5: unrelated people
        UUID doc = UUID.randomUUID();
        List<ComoRagStore.Fact> facts = new ArrayList<>(List.of(
                new ComoRagStore.Fact(new ComoRagStore.UnitKey(doc, 0), "Adela", "wrote to", "the keeper"),
                new ComoRagStore.Fact(new ComoRagStore.UnitKey(doc, 1), "the keeper", "is", "Desmond")));
        List<GraphBuilder.UnitEntities> units = new ArrayList<>(List.of(
                new GraphBuilder.UnitEntities(0, List.of("Adela")),
                new GraphBuilder.UnitEntities(1, List.of("Desmond"))));
        for (int u = 2; u < 6; u++) {
            facts.add(new ComoRagStore.Fact(new ComoRagStore.UnitKey(doc, u), "Person" + u, "lives in", "Town" + u));
            units.add(new GraphBuilder.UnitEntities(u, List.of("Person" + u)));
        }
        Random random = new Random(1);
        EntityGraph g = GraphBuilder.build(
                        units,
                        facts,
                        names -> names.stream()
                                .map(n -> {
                                    float[] v = new float[16];
                                    for (int d = 0; d < 16; d++) {
                                        v[d] = (float) random.nextGaussian();
                                    }
                                    return v;
                                })
                                .toList(),
                        0.99)
                .graph();
        double[] reset = new double[g.nodeCount()];
        reset[g.entityNode("adela")] = 1;
        // the dense seeds favour an unrelated unit a little, as a lexical match would
        for (int u = 0; u < 6; u++) {
            reset[g.unitNode(u)] = 0.05 * (u == 3 ? 1.0 : 0.2);
        }

        double[] p = g.personalisedPageRank(reset, 0.5, 1e-12, 200);

        assertThat(java.util.Arrays.stream(p).sum()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-6));
        double twoHops = p[g.unitNode(1)];
        for (int u = 2; u < 6; u++) {
            assertThat(twoHops).as("unit 1 above unrelated unit %d", u).isGreaterThan(p[g.unitNode(u)]);
        }
        assertThat(p[g.unitNode(0)]).isGreaterThan(twoHops);
        assertThat(TriRetriever.names("who did adela write to?", "adela")).isTrue();
        assertThat(TriRetriever.names("who did adelaide write to?", "adela")).isFalse();
    }

    @Test
    void pageRankOnANovelSizedGraphTakesMilliseconds() {
        // a 250K-token novel: about 500 units of 512 tokens, 4,000 entities, 12 triples a unit
        Random random = new Random(0);
        UUID doc = UUID.randomUUID();
        int unitCount = 500;
        int entityCount = 4000;
        List<ComoRagStore.Fact> facts = new ArrayList<>();
        List<GraphBuilder.UnitEntities> units = new ArrayList<>();
        for (int u = 0; u < unitCount; u++) {
            List<String> named = new ArrayList<>();
            for (int t = 0; t < 12; t++) {
                // a few frequent characters, a long tail of rare names
                String s = "e" + (int) Math.min(entityCount - 1, Math.abs(random.nextGaussian()) * entityCount / 3);
                String o = "e" + random.nextInt(entityCount);
                facts.add(new ComoRagStore.Fact(new ComoRagStore.UnitKey(doc, u), s, "p", o));
                named.add(s);
            }
            units.add(new GraphBuilder.UnitEntities(u, named));
        }
        long built = System.nanoTime();
        EntityGraph g = GraphBuilder.build(
                        units,
                        facts,
                        names -> names.stream()
                                .map(n -> {
                                    float[] v = new float[384];
                                    for (int d = 0; d < 384; d++) {
                                        v[d] = (float) random.nextGaussian();
                                    }
                                    return v;
                                })
                                .toList(),
                        0.8)
                .graph();
        double buildMs = (System.nanoTime() - built) / 1e6;
        byte[] bytes = g.serialise();
        EntityGraph back = EntityGraph.deserialise(bytes);
        long loaded = System.nanoTime();
        for (int i = 0; i < 20; i++) {
            back = EntityGraph.deserialise(bytes);
        }
        double loadMs = (System.nanoTime() - loaded) / 1e6 / 20;

        int probes = 200;
        double[][] resets = new double[probes][];
        for (int i = 0; i < probes; i++) {
            double[] reset = new double[back.nodeCount()];
            for (int k = 0; k < 10; k++) {
                reset[random.nextInt(back.entityCount())] += random.nextDouble();
            }
            for (int u = 0; u < unitCount; u++) {
                reset[back.unitNode(u)] = 0.05 * random.nextDouble();
            }
            resets[i] = reset;
        }
        for (int i = 0; i < 20; i++) {
            back.personalisedPageRank(resets[i], 0.5, 1e-9, 100);
        }
        long start = System.nanoTime();
        for (double[] reset : resets) {
            back.personalisedPageRank(reset, 0.5, 1e-9, 100);
        }
        double perProbe = (System.nanoTime() - start) / 1e6 / probes;
        System.out.printf(
                "novel-size graph: %d nodes, %d edges, %d bytes; build %.1f ms (synonyms over %d names), load %.2f ms, "
                        + "PageRank %.3f ms per probe%n",
                back.nodeCount(), back.edgeCount(), bytes.length, buildMs, back.entityCount(), loadMs, perProbe);
        assertThat(back.entityCount()).isGreaterThan(3000);
        assertThat(perProbe).isLessThan(50);
    }

    private static List<String> names(EntityGraph g, byte kind) {
        return g.edges(kind).stream()
                .map(e -> label(g, e.a()) + "-" + label(g, e.b()))
                .toList();
    }

    private static String label(EntityGraph g, int node) {
        return g.isUnit(node) ? "u" + g.unitOrdinal(node) : g.entity(node);
    }

    @Test
    void optionsDefaultToThePapersValuesAndRejectBadOnes() {
        ComoRagOptions paper = ComoRagOptions.of(QuestionOptions.none());

        assertThat(paper.maxCycles()).isEqualTo(5);
        assertThat(paper.maxProbes()).isEqualTo(3);
        assertThat(paper.tokensFor(ComoRagOptions.VERIDICAL)).isEqualTo(3692);
        assertThat(paper.tokensFor(ComoRagOptions.SEMANTIC)).isEqualTo(923);
        assertThat(paper.tokensFor(ComoRagOptions.EPISODIC)).isEqualTo(923);
        assertThat(paper.historyTokens()).isEqualTo(461);
        assertThat(paper.stages()).containsExactly("veridical", "triples", "semantic", "episodic");
        assertThat(paper.veridical()).isEqualTo("graph");
        assertThat(paper.tryAnswer()).isEqualTo("memory");
        ComoRagOptions earlier =
                ComoRagOptions.of(new QuestionOptions(Map.of("veridical", "fusion", "tryAnswer", "evidence")));
        assertThat(earlier.veridical()).isEqualTo("fusion");
        assertThat(earlier.tryAnswer()).isEqualTo("evidence");
        assertThatThrownBy(() -> ComoRagOptions.of(new QuestionOptions(Map.of("veridical", "pagerank"))))
                .isInstanceOfSatisfying(
                        ApiProblem.class, p -> assertThat(p.field()).isEqualTo("options.veridical"));
        assertThatThrownBy(() -> ComoRagOptions.of(new QuestionOptions(Map.of("tryAnswer", "cues"))))
                .isInstanceOfSatisfying(
                        ApiProblem.class, p -> assertThat(p.field()).isEqualTo("options.tryAnswer"));
        assertThat(ComoRagSettings.defaults().clustering()).isEqualTo("gmm");
        int[] tokens = {500, 500, 500, 500, 500, 500, 500, 500, 500, 500};
        // Leiden without a member cap takes ⌈3,500 / 512⌉ = 7, its earlier cap
        assertThat(new ComoRagSettings(512, 3500, 0, "leiden", "umap", 0.1, 10, 0, 5, 0, 1, 4)
                        .clusters(themes(2, 5, 1), tokens)
                        .members())
                .isEqualTo(SemanticClusters.of(themes(2, 5, 1), 10, 7, 0));
        assertThat(ComoRagSettings.defaults().reduction()).isEqualTo("umap");
        assertThat(ComoRagSettings.defaults().mixture())
                .isEqualTo(new SemanticMixture.Params(SemanticMixture.Reduction.UMAP, 3500, 0, 0.01, 0));
        assertThat(ComoRagSettings.defaults().clusters(themes(2, 5, 1), tokens))
                .isEqualTo(SemanticMixture.of(
                        themes(2, 5, 1), tokens, ComoRagSettings.defaults().mixture()));
        assertThatThrownBy(() -> new ComoRagSettings(512, 3500, 0, "kmeans", "umap", 0.1, 10, 0, 5, 0, 1, 4))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ComoRagSettings(512, 3500, 0, "gmm", "tsne", 0.1, 10, 0, 5, 0, 1, 4))
                .isInstanceOf(IllegalArgumentException.class);

        ComoRagOptions ablated = ComoRagOptions.of(new QuestionOptions(Map.of(
                "layers",
                List.of("veridical", "episodic"),
                "memory",
                false,
                "split",
                List.of(1, 1, 1, 1),
                "contextTokens",
                4000)));
        assertThat(ablated.tokensFor(ComoRagOptions.SEMANTIC)).isZero();
        assertThat(ablated.tokensFor(ComoRagOptions.VERIDICAL)).isEqualTo(1000);
        assertThat(ablated.historyTokens()).as("no workspace, no history").isZero();
        assertThat(ablated.stages()).containsExactly("veridical", "triples", "episodic");
        assertThat(ComoRagOptions.of(new QuestionOptions(Map.of("layers", List.of("semantic"))))
                        .stages())
                .containsExactly("veridical", "semantic");

        assertThatThrownBy(() -> ComoRagOptions.of(new QuestionOptions(Map.of("split", List.of(8, 2, 2)))))
                .isInstanceOfSatisfying(
                        ApiProblem.class, p -> assertThat(p.field()).isEqualTo("options.split"));
        assertThatThrownBy(() -> ComoRagOptions.of(new QuestionOptions(Map.of("split", List.of(0, 0, 0, 1)))))
                .isInstanceOfSatisfying(
                        ApiProblem.class, p -> assertThat(p.field()).isEqualTo("options.split"));
        assertThatThrownBy(() -> ComoRagOptions.of(new QuestionOptions(Map.of("split", List.of(8, -2, 2, 1)))))
                .isInstanceOfSatisfying(
                        ApiProblem.class, p -> assertThat(p.field()).isEqualTo("options.split"));
        assertThatThrownBy(() -> ComoRagOptions.of(new QuestionOptions(Map.of("layers", List.of("graph")))))
                .isInstanceOfSatisfying(
                        ApiProblem.class, p -> assertThat(p.field()).isEqualTo("options.layers"));
        assertThatThrownBy(() -> ComoRagOptions.of(new QuestionOptions(Map.of("encode", "per-cycle"))))
                .isInstanceOfSatisfying(
                        ApiProblem.class, p -> assertThat(p.field()).isEqualTo("options.encode"));
        assertThatThrownBy(() -> ComoRagOptions.of(new QuestionOptions(Map.of("maxCycle", 3))))
                .isInstanceOfSatisfying(
                        ApiProblem.class, p -> assertThat(p.field()).isEqualTo("options.maxCycle"));
    }

    @Test
    void aProbeIsNewOnlyIfNoEarlierProbeSaidTheSameAndFusionTakesTheClosestHalfOfThePool() {
        Workspace workspace = new Workspace("Who was Pip's benefactor?");
        assertThat(workspace.isNew("who was pips benefactor")).isFalse();
        workspace.addProbe("Magwitch's return from Australia");
        assertThat(workspace.isNew("  MAGWITCH'S return, from Australia!")).isFalse();
        assertThat(workspace.isNew("Miss Havisham's money")).isTrue();
        assertThat(workspace.probes()).containsExactly("Who was Pip's benefactor?", "Magwitch's return from Australia");

        float[] question = {1, 0, 0};
        List<MemoryUnit> units = List.of(
                unit("m1", 0, 1, 0),
                unit("m2", 1, 0, 0),
                unit("m3", 0.7f, 0.7f, 0),
                unit("m4", 0, 0, 1),
                unit("m5", 0.9f, 0.1f, 0));
        workspace.update(units);
        assertThat(workspace.mostRelevant(question, 0.5))
                .extracting(s -> s.item().id())
                .containsExactly("m2", "m5");
        assertThat(workspace.mostRelevant(question, 0.1))
                .extracting(s -> s.item().id())
                .containsExactly("m2");
        assertThat(workspace.mostRelevant(question, 0)).isEmpty();
    }

    @Test
    void proseRepliesStillYieldProbesFindingsAndAnswers() {
        assertThat(Replies.Probes.fromPlainText(
                                "Here are probes:\n1. Magwitch's past\n- Probe 2: Jaggers' client\n\n* Estella's mother")
                        .list())
                .containsExactly("Magwitch's past", "Jaggers' client", "Estella's mother");
        assertThat(Replies.Cue.fromPlainText("Key Finding: Pip meets a convict.\nKey finding 2: He helps him.")
                        .list())
                .containsExactly("Pip meets a convict.", "He helps him.");

        Replies.Attempt answer = Replies.Attempt.fromPlainText("Magwitch paid for it all.", 0);
        assertThat(answer.canAnswer()).isTrue();
        assertThat(answer.answer()).isEqualTo("Magwitch paid for it all.");
        assertThat(answer.supports()).isEmpty();
        assertThat(answer.confidence()).isLessThan(0.5);
        assertThat(Replies.Attempt.fromPlainText(" * ", 0).canAnswer()).isFalse();
        assertThat(Replies.Attempt.fromPlainText("### Final Answer\n[C]", 4).choice())
                .isEqualTo(2);
        assertThat(Replies.Attempt.fromPlainText("[F]", 4).choice()).isNull();

        Replies.Attempt noVerdict = new Replies.Attempt(null, null, null, "Magwitch", null, null, null);
        assertThat(noVerdict.committed())
                .as("an answer without a verdict is an answer")
                .isTrue();
        assertThat(noVerdict.confidenceValue()).isEqualTo(0.5);
        assertThat(new Replies.Attempt(null, null, null, " * ", null, null, null).committed())
                .isFalse();
        assertThat(new Replies.Attempt(null, null, false, "Magwitch", null, null, 0.9).committed())
                .isFalse();
    }

    @Test
    void historyIsCutToItsShareOfTheContext() {
        String long_ = "word ".repeat(2000);
        String cut = TryAnswer.truncate(long_, 461);
        assertThat(io.lorekeeper.text.TokenCounter.count(cut)).isLessThanOrEqualTo(461);
        assertThat(cut).endsWith("…");
        assertThat(TryAnswer.truncate("short", 461)).isEqualTo("short");
        assertThat(TryAnswer.truncate("anything", 0)).isEmpty();
    }

    private static MemoryUnit unit(String id, float x, float y, float z) {
        return new MemoryUnit(id, 0, "probe", "veridical", List.of(), "cue " + id, new float[] {x, y, z});
    }

    private static ChunkRow chunk(int ordinal, int page, int tokens) {
        return new ChunkRow(ordinal, page, ordinal * 10, ordinal * 10 + 9, tokens);
    }

    /** {@code count} points around each of {@code themes} random directions in 32 dimensions; point i belongs to theme i % themes. */
    private static List<float[]> themes(int themes, int count, long seed) {
        Random random = new Random(seed);
        float[][] centres = new float[themes][32];
        for (float[] c : centres) {
            for (int d = 0; d < 32; d++) {
                c[d] = (float) random.nextGaussian();
            }
        }
        List<float[]> out = new ArrayList<>();
        for (int i = 0; i < themes * count; i++) {
            float[] v = new float[32];
            for (int d = 0; d < 32; d++) {
                v[d] = centres[i % themes][d] + 0.3f * (float) random.nextGaussian();
            }
            out.add(v);
        }
        return out;
    }
}
