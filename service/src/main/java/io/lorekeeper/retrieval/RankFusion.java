package io.lorekeeper.retrieval;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.lorekeeper.document.search.SearchHit;

/**
 * Reciprocal-rank fusion: a chunk scores the sum of 1 / (c + rank) over the rankings that contain
 * it. Rank-based, so cosine similarities and BM25 scores need no common scale.
 */
final class RankFusion {

    static final int C = 60;

    private RankFusion() {}

    static List<SearchHit> fuse(List<List<SearchHit>> rankings, int k) {
        double[] equal = new double[rankings.size()];
        java.util.Arrays.fill(equal, 1.0);
        return fuse(rankings, equal, k);
    }

    /** Weighted fusion: ranking i contributes {@code weights[i] / (c + rank)}. */
    static List<SearchHit> fuse(List<List<SearchHit>> rankings, double[] weights, int k) {
        if (weights.length != rankings.size()) {
            throw new IllegalArgumentException(rankings.size() + " rankings but " + weights.length + " weights");
        }
        Map<SearchHit.ChunkKey, SearchHit> hits = new LinkedHashMap<>();
        Map<SearchHit.ChunkKey, Double> scores = new LinkedHashMap<>();
        for (int i = 0; i < rankings.size(); i++) {
            List<SearchHit> ranking = rankings.get(i);
            for (int rank = 0; rank < ranking.size(); rank++) {
                SearchHit hit = ranking.get(rank);
                hits.putIfAbsent(hit.key(), hit);
                scores.merge(hit.key(), weights[i] / (C + rank + 1), Double::sum);
            }
        }
        return scores.entrySet().stream()
                .sorted(Map.Entry.<SearchHit.ChunkKey, Double>comparingByValue()
                        .reversed()
                        .thenComparing(e -> e.getKey().documentId())
                        .thenComparing(e -> e.getKey().ordinal()))
                .limit(k)
                .map(e -> hits.get(e.getKey()).withScore(e.getValue()))
                .toList();
    }
}
