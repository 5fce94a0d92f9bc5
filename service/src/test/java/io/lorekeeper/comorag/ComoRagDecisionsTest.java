package io.lorekeeper.comorag;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.lorekeeper.comorag.ComoRagStore.ChunkRow;
import io.lorekeeper.platform.ApiProblem;
import io.lorekeeper.strategy.QuestionOptions;
import io.lorekeeper.text.Span;

/**
 * ComoRAG's boundaries without a model or a database: where the episodic windows stop, when a unit
 * is full, what the workspace counts as seen and which cues it hands on, and which context splits
 * are accepted. (The paper's values and the retrieval are in {@link ComoRagUnitTest}.)
 */
class ComoRagDecisionsTest {

    @Test
    void theLastWindowEndsAtTheTextAndNoEmptyOrRepeatedWindowFollowsIt() {
        assertThat(EpisodicWindows.of(6, 3, 0)).containsExactly(List.of(0, 1, 2), List.of(3, 4, 5));
        assertThat(EpisodicWindows.of(6, 3, 2))
                .as("overlapping windows stop once one reaches the end")
                .containsExactly(List.of(0, 1, 2), List.of(2, 3, 4), List.of(4, 5));
        assertThat(EpisodicWindows.of(5, 3, 3)).containsExactly(List.of(0, 1, 2), List.of(3, 4));
        assertThat(EpisodicWindows.of(3, 3, 1)).as("one window covers it all").containsExactly(List.of(0, 1, 2));
        assertThat(EpisodicWindows.of(2, 3, 1)).containsExactly(List.of(0, 1));
        assertThat(EpisodicWindows.of(4, 2, 5))
                .as("a stride over the size is the size")
                .containsExactly(List.of(0, 1), List.of(2, 3));
    }

    @Test
    void aUnitTakesChunksUpToExactlyItsTokenLimit() {
        List<ChunkRow> chunks = List.of(
                new ChunkRow(0, 0, 0, 9, 100), new ChunkRow(1, 0, 10, 19, 100), new ChunkRow(2, 0, 20, 29, 100));
        assertThat(UnitPacking.pack(chunks, 200))
                .extracting(u -> u.stream().map(ChunkRow::ordinal).toList())
                .containsExactly(List.of(0, 1), List.of(2));
        assertThat(UnitPacking.pack(chunks, 199))
                .extracting(u -> u.stream().map(ChunkRow::ordinal).toList())
                .containsExactly(List.of(0), List.of(1), List.of(2));
    }

    private static Evidence evidence(String id) {
        return new Evidence("veridical", id, UUID.randomUUID(), new Span(0, 1), List.of(0), 0, "t", 1, 1.0, null);
    }

    private static MemoryUnit unit(String id, List<Evidence> evidence) {
        return new MemoryUnit(id, 0, "probe", "veridical", evidence, "cue", new float[] {1, 0});
    }

    @Test
    void theWorkspaceCountsEveryUnitsEvidenceAsSeenAndHandsOnTheLatestOrAllCues() {
        Workspace workspace = new Workspace("Who paid?");
        assertThat(workspace.nextUnitId()).isEqualTo("m1");
        assertThat(workspace.nextUnitId()).isEqualTo("m2");
        assertThat(workspace.pool()).isEmpty();

        MemoryUnit first = unit("m1", List.of(evidence("u:a:1"), evidence("u:a:2")));
        MemoryUnit second = unit("m2", List.of(evidence("u:a:3")));
        workspace.update(List.of(first, second));
        MemoryUnit third = unit("m3", List.of(evidence("s:9")));
        workspace.update(List.of(third));
        workspace.see(List.of(evidence("u:b:7")));

        assertThat(workspace.seen()).containsExactlyInAnyOrder("u:a:1", "u:a:2", "u:a:3", "s:9", "u:b:7");
        assertThat(workspace.pool()).containsExactly(first, second, third);
        assertThat(workspace.cueSource(ComoRagOptions.POOL)).containsExactly(first, second, third);
        assertThat(workspace.cueSource(ComoRagOptions.LAST_CYCLE)).containsExactly(third);
        assertThat(workspace.mostRelevant(new float[] {1, 0}, -0.5)).isEmpty();
    }

    @Test
    void aProbeAlreadyAskedIsNotAddedTwice() {
        Workspace workspace = new Workspace("  Who paid?  ");
        workspace.addProbe("who PAID");
        workspace.addProbe("Who'd pay?");
        assertThat(workspace.probes()).containsExactly("Who paid?", "Who'd pay?");
        assertThat(Workspace.key("Pip’s benefactor!")).isEqualTo("pips benefactor");
    }

    private static List<Double> split(List<?> value) {
        return ComoRagOptions.of(new QuestionOptions(Map.of("split", value))).split();
    }

    @Test
    void aSplitMayGiveZeroToAnyLayerButNotToAllThree() {
        assertThat(split(List.of(0, 0, 1, 0))).containsExactly(0.0, 0.0, 1.0, 0.0);
        assertThat(split(List.of(0, 1, 0, 0))).containsExactly(0.0, 1.0, 0.0, 0.0);
        assertThat(split(List.of(1, 0, 0, 0))).containsExactly(1.0, 0.0, 0.0, 0.0);
        for (List<?> bad : List.<List<?>>of(
                List.of(0, 0, 0, 5),
                List.of(-1, 2, 2, 1),
                List.of(1, 1, 1),
                List.of(1, 1, 1, Double.NaN),
                List.of(1, 1, "a", 1))) {
            assertThatThrownBy(() -> split(bad))
                    .as(bad.toString())
                    .isInstanceOfSatisfying(
                            ApiProblem.class, p -> assertThat(p.field()).isEqualTo("options.split"));
        }
        assertThat(ComoRagOptions.of(QuestionOptions.none()).split()).containsExactly(8.0, 2.0, 2.0, 1.0);
    }

    @Test
    void aCycleStopsOnlyWhenNoProbeFoundNewEvidenceInAnyLayer() {
        TriRetriever.LayerResult nothing =
                new TriRetriever.LayerResult(ComoRagOptions.VERIDICAL, List.of(), 1000, 3, List.of(), null);
        TriRetriever.LayerResult something = new TriRetriever.LayerResult(
                ComoRagOptions.VERIDICAL, List.of(evidence("u:a:4")), 1000, 3, List.of(), null);
        MetacognitiveLoop.Probed empty =
                new MetacognitiveLoop.Probed("the wax seal", Map.of(ComoRagOptions.VERIDICAL, nothing));
        MetacognitiveLoop.Probed fresh =
                new MetacognitiveLoop.Probed("the red notebook", Map.of(ComoRagOptions.VERIDICAL, something));

        assertThat(MetacognitiveLoop.noNewEvidence(List.of(empty, fresh)))
                .as("two probes, only one finding unseen evidence: the cycle goes on")
                .isFalse();
        assertThat(MetacognitiveLoop.noNewEvidence(List.of(fresh, empty))).isFalse();
        assertThat(MetacognitiveLoop.noNewEvidence(List.of(empty, empty)))
                .as("no layer returned new evidence")
                .isTrue();
    }

    @Test
    void everyUnitIsSeededWithItsNormalisedSimilarityTimesThePassageWeight() {
        UUID doc = UUID.randomUUID();
        List<ComoRagStore.Scored<ComoRagStore.Unit>> dense =
                List.of(scored(doc, 0, 0.9), scored(doc, 1, 0.6), scored(doc, 2, 0.3));

        Map<ComoRagStore.UnitKey, Double> seeds = TriRetriever.passageSeeds(dense);

        assertThat(TriRetriever.PASSAGE_WEIGHT)
                .as("HippoRAG 2's passage node weight")
                .isEqualTo(0.05);
        assertThat(seeds).hasSize(3);
        assertThat(seeds.get(new ComoRagStore.UnitKey(doc, 0))).isEqualTo(0.05);
        assertThat(seeds.get(new ComoRagStore.UnitKey(doc, 1)))
                .isCloseTo(0.025, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(seeds.get(new ComoRagStore.UnitKey(doc, 2))).isZero();
    }

    private static ComoRagStore.Scored<ComoRagStore.Unit> scored(UUID doc, int ordinal, double score) {
        return new ComoRagStore.Scored<>(
                new ComoRagStore.Unit(doc, ordinal, ordinal, ordinal, 0, new Span(ordinal * 10, ordinal * 10 + 9), 5),
                score);
    }
}
