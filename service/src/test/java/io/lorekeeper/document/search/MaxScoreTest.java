package io.lorekeeper.document.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

/**
 * MaxScore finds exactly the top k that scoring every chunk holding a query term finds (same chunks,
 * same order, same scores), over random corpora whose term frequencies follow Zipf's law like
 * text, while scoring fewer chunks than the query terms select.
 */
class MaxScoreTest {

    private static final double K1 = KeywordSearch.K1;
    private static final double B = KeywordSearch.B;

    /** Term i is drawn with probability proportional to 1 / (i + 1): "t0" is everywhere, "t299" rare. */
    private static List<KeywordPostings> corpus(Random random, int documents, int chunksEach, long firstId) {
        List<KeywordPostings> corpus = new ArrayList<>();
        long id = firstId;
        for (int d = 0; d < documents; d++) {
            int chunks = 1 + random.nextInt(chunksEach);
            long[] ids = new long[chunks];
            int[] lengths = new int[chunks];
            Map<String, List<Integer>> postings = new HashMap<>();
            for (int c = 0; c < chunks; c++) {
                ids[c] = id++;
                int length = 5 + random.nextInt(60);
                Map<String, Integer> tf = new HashMap<>();
                for (int w = 0; w < length; w++) {
                    tf.merge("t" + zipf(random, 300), 1, Integer::sum);
                }
                lengths[c] = length;
                int chunk = c;
                tf.forEach((term, f) ->
                        postings.computeIfAbsent(term, t -> new ArrayList<>()).add(KeywordPostings.posting(chunk, f)));
            }
            Map<String, KeywordPostings.Term> terms = new HashMap<>();
            postings.forEach((term, list) -> {
                int[] array = list.stream().mapToInt(Integer::intValue).toArray();
                int maxTf = list.stream().mapToInt(KeywordPostings::tfOf).max().orElseThrow();
                int minLength = list.stream()
                        .mapToInt(p -> lengths[KeywordPostings.chunkOf(p)])
                        .min()
                        .orElseThrow();
                terms.put(term, new KeywordPostings.Term(array, maxTf, minLength));
            });
            corpus.add(new KeywordPostings(UUID.randomUUID(), 1, ids, lengths, terms));
        }
        return corpus;
    }

    private static int zipf(Random random, int n) {
        double total = 0;
        for (int i = 1; i <= n; i++) {
            total += 1.0 / i;
        }
        double u = random.nextDouble() * total;
        for (int i = 1; i <= n; i++) {
            u -= 1.0 / i;
            if (u <= 0) {
                return i - 1;
            }
        }
        return n - 1;
    }

    /** A document with chunks of the given ids and lengths; each term once in the chunks named. */
    private static DocumentBuilder aDocument(long[] ids, int... lengths) {
        return new DocumentBuilder(ids, lengths);
    }

    private static final class DocumentBuilder {
        private final long[] ids;
        private final int[] lengths;
        private final Map<String, KeywordPostings.Term> terms = new HashMap<>();

        DocumentBuilder(long[] ids, int[] lengths) {
            this.ids = ids;
            this.lengths = lengths;
        }

        DocumentBuilder with(String term, int... chunks) {
            int[] postings = Arrays.stream(chunks)
                    .sorted()
                    .map(c -> KeywordPostings.posting(c, 1))
                    .toArray();
            int shortest = Arrays.stream(chunks).map(c -> lengths[c]).min().orElseThrow();
            terms.put(term, new KeywordPostings.Term(postings, 1, shortest));
            return this;
        }

        /** The term in every chunk. */
        DocumentBuilder everywhere(String term) {
            return with(term, IntStream.range(0, ids.length).toArray());
        }

        KeywordPostings build() {
            return new KeywordPostings(UUID.randomUUID(), 1, ids, lengths, terms);
        }
    }

    /** MaxScore over the documents, each term looked up in each as the keyword index does. */
    private static MaxScore.Result top(
            MaxScore maxScore, List<KeywordPostings> documents, List<MaxScore.Term> terms, int k) {
        List<String> lexemes = terms.stream().map(MaxScore.Term::lexeme).toList();
        return maxScore.top(
                documents.stream()
                        .map(document -> MaxScore.Searched.of(document, lexemes))
                        .toList(),
                terms,
                k);
    }

    /** Every chunk holding a query term scored, as the SQL does when nothing limits its candidates. */
    private static List<MaxScore.Ranked> exhaustive(
            List<KeywordPostings> corpus, List<MaxScore.Term> terms, double averageLength, int k) {
        List<MaxScore.Ranked> all = new ArrayList<>();
        for (KeywordPostings document : corpus) {
            for (int chunk = 0; chunk < document.chunkCount(); chunk++) {
                double score = 0;
                boolean holds = false;
                for (MaxScore.Term term : terms) {
                    KeywordPostings.Term postings = document.term(term.lexeme());
                    if (postings == null) {
                        continue;
                    }
                    for (int posting : postings.postings()) {
                        if (KeywordPostings.chunkOf(posting) == chunk) {
                            int tf = KeywordPostings.tfOf(posting);
                            int length = document.termCount(chunk);
                            score += term.weight() * (tf * (K1 + 1)) / (tf + K1 * (1 - B + B * length / averageLength));
                            holds = true;
                        }
                    }
                }
                if (holds) {
                    all.add(new MaxScore.Ranked(document, chunk, document.chunkId(chunk), score));
                }
            }
        }
        all.sort(Comparator.comparingDouble(MaxScore.Ranked::score)
                .reversed()
                .thenComparingLong(MaxScore.Ranked::chunkId));
        return all.subList(0, Math.min(k, all.size()));
    }

    private static List<MaxScore.Term> query(Random random, List<KeywordPostings> corpus, int words) {
        long chunks = corpus.stream().mapToLong(KeywordPostings::chunkCount).sum();
        Set<String> lexemes = new HashSet<>();
        List<MaxScore.Term> terms = new ArrayList<>();
        while (terms.size() < words) {
            String lexeme = "t" + random.nextInt(300);
            if (!lexemes.add(lexeme)) {
                continue;
            }
            long df = corpus.stream()
                    .mapToLong(d -> d.term(lexeme) == null ? 0 : d.term(lexeme).size())
                    .sum();
            terms.add(new MaxScore.Term(lexeme, Math.log(1 + (chunks - df + 0.5) / (df + 0.5))));
        }
        return terms;
    }

    private static double averageLength(List<KeywordPostings> corpus) {
        long chunks = corpus.stream().mapToLong(KeywordPostings::chunkCount).sum();
        long terms = corpus.stream().mapToLong(KeywordPostings::termTotal).sum();
        return Math.max(1.0, (double) terms / chunks);
    }

    @Test
    void findsExactlyTheTopKThatScoringEveryCandidateFinds() {
        Random random = new Random(7);
        for (int round = 0; round < 60; round++) {
            List<KeywordPostings> corpus = corpus(random, 1 + random.nextInt(6), 120, 1000L * round);
            List<MaxScore.Term> terms = query(random, corpus, 1 + random.nextInt(9));
            int k = 1 + random.nextInt(40);
            double averageLength = averageLength(corpus);

            List<MaxScore.Ranked> found =
                    top(new MaxScore(K1, B, averageLength), corpus, terms, k).ranked();

            assertThat(found)
                    .as("round %d", round)
                    .usingRecursiveFieldByFieldElementComparatorIgnoringFields("document")
                    .containsExactlyElementsOf(exhaustive(corpus, terms, averageLength, k));
        }
    }

    @Test
    void equalScoresGoToTheLowerChunkIdAsTheSqlOrders() {
        // five one-term chunks of equal length: all score the same, the three lowest ids win
        KeywordPostings late = aDocument(new long[] {50, 51, 52, 53, 54}, 4, 4, 4, 4, 4)
                .everywhere("lamp")
                .build();
        KeywordPostings early = aDocument(new long[] {9, 10, 11, 60, 61}, 4, 4, 4, 4, 4)
                .everywhere("lamp")
                .build();

        List<MaxScore.Ranked> found = top(
                        new MaxScore(K1, B, 4), List.of(late, early), List.of(new MaxScore.Term("lamp", 1.5)), 3)
                .ranked();

        assertThat(found).extracting(MaxScore.Ranked::chunkId).containsExactly(9L, 10L, 11L);
    }

    @Test
    void frequentTermsStopProposingCandidatesOnceTheTopKIsHeld() {
        Random random = new Random(11);
        List<KeywordPostings> corpus = corpus(random, 8, 400, 0);
        // two everywhere-terms and two rare ones
        List<MaxScore.Term> terms = query(new Random(3), corpus, 0);
        long chunks = corpus.stream().mapToLong(KeywordPostings::chunkCount).sum();
        terms = new ArrayList<>(terms);
        for (String lexeme : List.of("t0", "t1", "t250", "t280")) {
            long df = corpus.stream()
                    .mapToLong(d -> d.term(lexeme) == null ? 0 : d.term(lexeme).size())
                    .sum();
            terms.add(new MaxScore.Term(lexeme, Math.log(1 + (chunks - df + 0.5) / (df + 0.5))));
        }
        Set<Long> selected = new HashSet<>();
        for (KeywordPostings document : corpus) {
            for (MaxScore.Term term : terms) {
                KeywordPostings.Term postings = document.term(term.lexeme());
                if (postings != null) {
                    for (int posting : postings.postings()) {
                        selected.add(document.chunkId(KeywordPostings.chunkOf(posting)));
                    }
                }
            }
        }

        MaxScore.Result result = top(new MaxScore(K1, B, averageLength(corpus)), corpus, terms, 10);

        assertThat(result.ranked())
                .usingRecursiveFieldByFieldElementComparatorIgnoringFields("document")
                .containsExactlyElementsOf(exhaustive(corpus, terms, averageLength(corpus), 10));
        assertThat(result.scored()).isLessThan(selected.size() / 4);
    }

    /** One document of ten equal chunks; "common" in every chunk, "rare" in the given ones only. */
    private static KeywordPostings commonAndRare(int... rareChunks) {
        return aDocument(new long[] {100, 101, 102, 103, 104, 105, 106, 107, 108, 109}, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8)
                .everywhere("common")
                .with("rare", rareChunks)
                .build();
    }

    @Test
    void onceTheBestIsHeldTheFrequentTermIsOnlyLookedUp() {
        // the rare term first in the query: the cheap one must still be found to be the cheap one
        List<MaxScore.Term> terms = List.of(new MaxScore.Term("rare", 3.0), new MaxScore.Term("common", 0.2));

        MaxScore.Result result = top(new MaxScore(K1, B, 8), List.of(commonAndRare(0)), terms, 1);

        assertThat(result.ranked()).extracting(MaxScore.Ranked::chunkId).containsExactly(100L);
        // chunk 0 holds both and sets the bar; "common" alone cannot reach it, so no other chunk is scored
        assertThat(result.scored()).isEqualTo(1);
    }

    @Test
    void aBetterChunkRaisesTheBarAndTheRestIsSkipped() {
        List<MaxScore.Term> terms = List.of(new MaxScore.Term("common", 0.2), new MaxScore.Term("rare", 3.0));

        MaxScore.Result result = top(new MaxScore(K1, B, 8), List.of(commonAndRare(5)), terms, 1);

        assertThat(result.ranked()).extracting(MaxScore.Ranked::chunkId).containsExactly(105L);
        // chunks 0-4 tie on "common" (the first stays), 5 replaces it; past it "common" proposes nothing
        assertThat(result.scored()).isEqualTo(6);
    }

    @Test
    void aCandidateThatCannotReachTheBarIsGivenUpBeforeItIsScored() {
        // "bell" in a short chunk (0) and a long one (5): its bound is the short chunk's score, and in
        // the long chunk even "the" everywhere cannot lift it to chunk 0's score
        KeywordPostings document = aDocument(new long[] {1, 2, 3, 4, 5, 6}, 4, 20, 20, 20, 20, 400)
                .everywhere("the")
                .with("bell", 0, 5)
                .build();
        List<MaxScore.Term> terms = List.of(new MaxScore.Term("the", 0.3), new MaxScore.Term("bell", 2.0));

        MaxScore.Result result = top(new MaxScore(K1, B, 80), List.of(document), terms, 1);

        assertThat(result.ranked()).extracting(MaxScore.Ranked::chunkId).containsExactly(1L);
        assertThat(result.scored()).isEqualTo(1);
    }

    @Test
    void aPostingPacksItsChunkAndFrequencyAndADocumentCountsItsTerms() {
        assertThat(KeywordPostings.chunkOf(KeywordPostings.posting(70_000, 3))).isEqualTo(70_000);
        assertThat(KeywordPostings.tfOf(KeywordPostings.posting(70_000, 3))).isEqualTo(3);
        // PostgreSQL keeps at most 256 positions of a lexeme in a chunk
        assertThat(KeywordPostings.tfOf(KeywordPostings.posting(1, 256))).isEqualTo(256);
        assertThat(KeywordPostings.tfOf(KeywordPostings.posting(1, 900))).isEqualTo(256);
        assertThat(KeywordPostings.posting(2, 256)).isLessThan(KeywordPostings.firstPostingOf(3));

        KeywordPostings document = commonAndRare(2, 7);
        assertThat(document.termTotal()).isEqualTo(80);
        assertThat(document.postingCount()).isEqualTo(12);
        assertThat(document.chunkCount()).isEqualTo(10);
        assertThat(document.term("absent")).isNull();
    }

    @Test
    void aQueryWithNoTermInTheCorpusOrAZeroKFindsNothing() {
        List<KeywordPostings> corpus = corpus(new Random(5), 3, 50, 0);

        assertThat(top(new MaxScore(K1, B, 30), corpus, List.of(new MaxScore.Term("absent", 2.0)), 5)
                        .ranked())
                .isEmpty();
        assertThat(top(new MaxScore(K1, B, 30), corpus, List.of(new MaxScore.Term("t0", 0.1)), 0)
                        .ranked())
                .isEmpty();
    }
}
