package io.lorekeeper.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.lorekeeper.document.search.SearchHit;

class RerankingTest {

    private static final UUID DOC = UUID.randomUUID();

    private final List<SearchHit> firstStage =
            IntStream.range(0, 6).mapToObj(i -> hit(i, "passage " + i)).toList();

    @Test
    void theFirstCandidatesTakeTheRerankersOrderAndTheRestStayBehindThem() {
        // scores the passages by the number in their text, highest last: the reranker reverses them
        Reranking reranking = reranking(
                4,
                passages -> passages.stream()
                        .mapToDouble(p -> Double.parseDouble(p.substring(p.length() - 1)))
                        .toArray());

        assertThat(reranking.reorder("q", firstStage))
                .extracting(SearchHit::chunkOrdinal)
                .containsExactly(3, 2, 1, 0, 4, 5);
        assertThat(reranking.top("q", 2, n -> firstStage.subList(0, n)))
                .extracting(SearchHit::chunkOrdinal)
                .containsExactly(3, 2);
    }

    @Test
    void aFailingRerankerLeavesTheFirstStageOrder() {
        Reranking reranking = reranking(4, passages -> {
            throw new IllegalStateException("endpoint down");
        });

        assertThat(reranking.top("q", 3, n -> firstStage.subList(0, n)))
                .extracting(SearchHit::chunkOrdinal)
                .containsExactly(0, 1, 2);
    }

    @Test
    void aRerankerThatFailedIsNotAskedAgainForAWhile() {
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        Reranking reranking = reranking(4, passages -> {
            calls.incrementAndGet();
            throw new IllegalStateException("endpoint down");
        });

        reranking.top("q", 3, n -> firstStage.subList(0, n));
        reranking.top("q", 3, n -> firstStage.subList(0, n));

        assertThat(calls).hasValue(1);
    }

    @Test
    void withoutARerankerTheFirstStageIsAskedForKAndReturnedAsItIs() {
        Reranking off = new Reranking(settings(30), Optional.empty());
        List<Integer> asked = new java.util.ArrayList<>();

        List<SearchHit> hits = off.top("q", 3, n -> {
            asked.add(n);
            return firstStage.subList(0, n);
        });

        assertThat(asked).containsExactly(3);
        assertThat(hits).extracting(SearchHit::chunkOrdinal).containsExactly(0, 1, 2);
    }

    @Test
    void passagesTheReplyLeftOutRankLastWithAFiniteScore() {
        Reranking reranking = reranking(3, passages -> new double[] {Double.NEGATIVE_INFINITY, 0.5, 0.9});

        List<SearchHit> hits = reranking.reorder("q", firstStage.subList(0, 3));

        assertThat(hits).extracting(SearchHit::chunkOrdinal).containsExactly(2, 1, 0);
        assertThat(hits.get(2).score()).isEqualTo(-0.5);
    }

    private static Reranking reranking(int candidates, java.util.function.Function<List<String>, double[]> scores) {
        Reranker reranker = new Reranker() {
            @Override
            public double[] scores(String query, List<String> passages) {
                return scores.apply(passages);
            }

            @Override
            public String name() {
                return "test";
            }
        };
        return new Reranking(settings(candidates), Optional.of(reranker));
    }

    private static RerankSettings settings(int candidates) {
        return new RerankSettings(
                "", "", 512, "tei", "", "", candidates, 32, 2000, Duration.ofSeconds(1), 1, 1, false, 20);
    }

    private static SearchHit hit(int ordinal, String text) {
        return new SearchHit(
                DOC, ordinal, 0, ordinal * 10, ordinal * 10 + 9, text, List.of(), List.of(), 1.0 / (ordinal + 1));
    }
}
