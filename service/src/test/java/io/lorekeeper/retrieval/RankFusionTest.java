package io.lorekeeper.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.lorekeeper.document.search.SearchHit;

class RankFusionTest {

    private static final UUID DOC_A = new UUID(0, 1);
    private static final UUID DOC_B = new UUID(0, 2);

    /** A hit of chunk {@code ordinal} in {@code doc}, with a mode-specific score the fusion must ignore. */
    private static SearchHit hit(UUID doc, int ordinal, double score) {
        return new SearchHit(
                doc,
                ordinal,
                ordinal / 10,
                ordinal * 100,
                ordinal * 100 + 99,
                "chunk " + ordinal,
                List.of("D1:" + ordinal),
                List.of(),
                score);
    }

    private static SearchHit hit(int ordinal) {
        return hit(DOC_A, ordinal, 0.5);
    }

    private static List<SearchHit.ChunkKey> keys(List<SearchHit> hits) {
        return hits.stream().map(SearchHit::key).toList();
    }

    private static SearchHit.ChunkKey key(UUID doc, int ordinal) {
        return new SearchHit.ChunkKey(doc, ordinal);
    }

    /** Reciprocal rank with the usual constant 60, written out here rather than read from the class under test. */
    private static double rr(int zeroBasedRank) {
        return 1.0 / (60 + zeroBasedRank + 1);
    }

    @Test
    void theTopHitOfASingleRankingScoresOneOverSixtyOne() {
        List<SearchHit> fused = RankFusion.fuse(List.of(List.of(hit(1), hit(2))), 10);

        assertThat(fused).extracting(SearchHit::score).containsExactly(1.0 / 61, 1.0 / 62);
        assertThat(fused.getFirst().score()).isCloseTo(0.0163934426, within(1e-10));
    }

    @Test
    void fusedScoresAreSumsOfReciprocalRanks() {
        List<SearchHit> vector = List.of(hit(DOC_A, 1, 0.91), hit(DOC_A, 2, 0.88), hit(DOC_A, 3, 0.80));
        List<SearchHit> bm25 = List.of(hit(DOC_A, 3, 12.5), hit(DOC_A, 4, 9.0), hit(DOC_A, 1, 3.2));

        List<SearchHit> fused = RankFusion.fuse(List.of(vector, bm25), 10);

        // 1: 1/61 + 1/63 = 0.0322664585; 3: 1/63 + 1/61 (same); 2: 1/62; 4: 1/62
        assertThat(keys(fused)).containsExactly(key(DOC_A, 1), key(DOC_A, 3), key(DOC_A, 2), key(DOC_A, 4));
        assertThat(fused.get(0).score()).isCloseTo(1.0 / 61 + 1.0 / 63, within(1e-15));
        assertThat(fused.get(0).score()).isCloseTo(0.0322664585, within(1e-10));
        assertThat(fused.get(1).score()).isCloseTo(0.0322664585, within(1e-10));
        assertThat(fused.get(2).score()).isCloseTo(1.0 / 62, within(1e-15));
        assertThat(fused.get(3).score()).isCloseTo(1.0 / 62, within(1e-15));
    }

    @Test
    void chunkFoundByBothRankingsBeatsOneFoundOnceAtTheSameRank() {
        List<SearchHit> vector = List.of(hit(5), hit(6));
        List<SearchHit> bm25 = List.of(hit(5), hit(7));
        List<SearchHit> third = List.of(hit(8));

        List<SearchHit> fused = RankFusion.fuse(List.of(vector, bm25, third), 10);

        assertThat(keys(fused)).containsExactly(key(DOC_A, 5), key(DOC_A, 8), key(DOC_A, 6), key(DOC_A, 7));
        assertThat(fused).extracting(SearchHit::score).containsExactly(2 * rr(0), rr(0), rr(1), rr(1));
    }

    @Test
    void chunkFoundTwiceAtSecondRankBeatsOneFoundOnceAtTheTop() {
        List<SearchHit> vector = List.of(hit(7), hit(8));
        List<SearchHit> bm25 = List.of(hit(9), hit(8));

        List<SearchHit> fused = RankFusion.fuse(List.of(vector, bm25), 10);

        assertThat(keys(fused).getFirst()).isEqualTo(key(DOC_A, 8));
        assertThat(fused.getFirst().score()).isCloseTo(2 * rr(1), within(1e-15));
        assertThat(keys(fused)).containsExactly(key(DOC_A, 8), key(DOC_A, 7), key(DOC_A, 9));
    }

    @Test
    void chunkFoundTwiceLowBeatsChunkFoundOnceAtTheTop() {
        List<SearchHit> vector = List.of(hit(1), hit(2), hit(3), hit(4), hit(5), hit(6));
        List<SearchHit> bm25 = List.of(hit(9), hit(10), hit(11), hit(12), hit(13), hit(6));

        List<SearchHit> fused = RankFusion.fuse(List.of(vector, bm25), 1);

        assertThat(keys(fused)).containsExactly(key(DOC_A, 6));
        assertThat(fused.getFirst().score()).isCloseTo(2 * rr(5), within(1e-15));
    }

    @Test
    void tiesAreBrokenByDocumentThenOrdinalWhateverTheInputOrder() {
        List<SearchHit> first = List.of(hit(DOC_B, 1, 0.9), hit(DOC_A, 9, 0.9));
        List<SearchHit> second = List.of(hit(DOC_A, 5, 0.9), hit(DOC_A, 2, 0.9));

        List<SearchHit> fused = RankFusion.fuse(List.of(first, second), 10);
        List<SearchHit> reversed = RankFusion.fuse(List.of(second, first), 10);

        // rank 0 in some list: DOC_A/5 and DOC_B/1; rank 1: DOC_A/2 and DOC_A/9
        assertThat(keys(fused)).containsExactly(key(DOC_A, 5), key(DOC_B, 1), key(DOC_A, 2), key(DOC_A, 9));
        assertThat(keys(reversed)).isEqualTo(keys(fused));
    }

    @Test
    void truncatesToK() {
        List<SearchHit> ranking = List.of(hit(1), hit(2), hit(3), hit(4), hit(5));

        assertThat(keys(RankFusion.fuse(List.of(ranking), 3)))
                .containsExactly(key(DOC_A, 1), key(DOC_A, 2), key(DOC_A, 3));
        assertThat(RankFusion.fuse(List.of(ranking), 0)).isEmpty();
        assertThat(RankFusion.fuse(List.of(ranking), 50)).hasSize(5);
    }

    @Test
    void fusedHitKeepsItsLocationAndReplacesOnlyTheScore() {
        SearchHit original = hit(DOC_B, 42, 0.77);

        SearchHit fused = RankFusion.fuse(List.of(List.of(original)), 5).getFirst();

        assertThat(fused.documentId()).isEqualTo(DOC_B);
        assertThat(fused.chunkOrdinal()).isEqualTo(42);
        assertThat(fused.pageOrdinal()).isEqualTo(4);
        assertThat(fused.start()).isEqualTo(4200);
        assertThat(fused.end()).isEqualTo(4299);
        assertThat(fused.text()).isEqualTo("chunk 42");
        assertThat(fused.turnIds()).containsExactly("D1:42");
        assertThat(fused.score()).as("the mode's own score (0.77) is replaced").isEqualTo(1.0 / 61);
    }

    @Test
    void sameChunkNumberInDifferentDocumentsAreDifferentChunks() {
        List<SearchHit> fused = RankFusion.fuse(List.of(List.of(hit(DOC_A, 1, 1)), List.of(hit(DOC_B, 1, 1))), 10);

        assertThat(keys(fused)).containsExactly(key(DOC_A, 1), key(DOC_B, 1));
        assertThat(fused).extracting(SearchHit::score).containsExactly(rr(0), rr(0));
    }

    @Test
    void noRankingsFuseToNothing() {
        assertThat(RankFusion.fuse(List.of(), 10)).isEmpty();
        assertThat(RankFusion.fuse(List.of(List.of(), List.of()), 10)).isEmpty();
    }

    @Test
    void aWeightedRankingCountsItsReciprocalRanksTimesItsWeight() {
        List<SearchHit> first = List.of(hit(1), hit(2));
        List<SearchHit> second = List.of(hit(3), hit(1));

        List<SearchHit> fused = RankFusion.fuse(List.of(first, second), new double[] {1.0, 0.5}, 10);

        assertThat(keys(fused)).containsExactly(key(DOC_A, 1), key(DOC_A, 2), key(DOC_A, 3));
        assertThat(fused.get(0).score()).isCloseTo(rr(0) + 0.5 * rr(1), within(1e-12));
        assertThat(fused.get(1).score()).isCloseTo(rr(1), within(1e-12));
        assertThat(fused.get(2).score()).isCloseTo(0.5 * rr(0), within(1e-12));
    }

    @Test
    void equalWeightsAreThePlainFusion() {
        List<List<SearchHit>> rankings = List.of(List.of(hit(1), hit(2), hit(3)), List.of(hit(3), hit(4)));

        assertThat(RankFusion.fuse(rankings, new double[] {1, 1}, 10)).isEqualTo(RankFusion.fuse(rankings, 10));
    }

    @Test
    void everyRankingNeedsAWeight() {
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> RankFusion.fuse(List.of(List.of(hit(1))), new double[] {1, 1}, 10));
    }
}
