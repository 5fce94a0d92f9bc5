package io.lorekeeper.comorag;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import io.lorekeeper.strategy.Leiden;

/**
 * The clusters of one level of the semantic layer. RAPTOR, which the paper follows, reduces the
 * embeddings with UMAP and fits a Gaussian mixture; Java has neither in this service's dependency
 * set, so the clusters are Leiden communities of the k-nearest-neighbour cosine graph of the nodes
 * (weights: cosine similarity; a cluster larger than the maximum is split again), under a fixed
 * seed so that the same vectors always give the same clusters. Clusters come in the order of their
 * first member, which for units is document order.
 */
final class SemanticClusters {

    private SemanticClusters() {}

    static List<List<Integer>> of(List<float[]> vectors, int neighbours, int maxSize, long seed) {
        int n = vectors.size();
        if (n == 0) {
            return List.of();
        }
        float[][] unit = vectors.stream().map(SemanticClusters::normalised).toArray(float[][]::new);
        List<Leiden.Edge> edges = new ArrayList<>();
        int k = Math.min(neighbours, n - 1);
        for (int i = 0; i < n; i++) {
            double[] similarity = new double[n];
            List<Integer> others = new ArrayList<>();
            for (int j = 0; j < n; j++) {
                if (j != i) {
                    similarity[j] = dot(unit[i], unit[j]);
                    others.add(j);
                }
            }
            final int from = i;
            others.stream()
                    .sorted(Comparator.<Integer>comparingDouble(j -> -similarity[j])
                            .thenComparingInt(j -> j))
                    .limit(k)
                    .filter(j -> similarity[j] > 0)
                    .forEach(j -> edges.add(new Leiden.Edge(from, j, similarity[j])));
        }
        List<List<Integer>> clusters = new ArrayList<>(Leiden.communities(n, edges, maxSize, seed));
        clusters.sort(Comparator.comparingInt(List::getFirst));
        return clusters;
    }

    static double cosine(float[] a, float[] b) {
        return dot(normalised(a), normalised(b));
    }

    /** {@code v} scaled to length 1 (a zero vector stays zero): the one place the comorag layers normalise. */
    static float[] normalised(float[] v) {
        double norm = 0;
        for (float x : v) {
            norm += x * x;
        }
        norm = Math.sqrt(norm);
        float[] out = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = norm == 0 ? 0 : (float) (v[i] / norm);
        }
        return out;
    }

    static double dot(float[] a, float[] b) {
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += a[i] * b[i];
        }
        return sum;
    }
}
