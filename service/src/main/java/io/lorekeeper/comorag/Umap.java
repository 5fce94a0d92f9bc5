package io.lorekeeper.comorag;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.EigenDecomposition;

/**
 * UMAP (McInnes, Healy and Melville, 2018) for the few hundred vectors of one level of the semantic
 * layer, as RAPTOR reduces before its mixtures: the cosine k-nearest-neighbour graph of the vectors
 * becomes a fuzzy simplicial set (each point's distances rescaled by its nearest neighbour's
 * distance and a bandwidth chosen so that its memberships sum to log2 k; the two directions
 * joined by the fuzzy union), whose spectral embedding starts a stochastic gradient layout that
 * pulls the graph's edges together and pushes negative samples apart.
 *
 * <p>Written here because the Java UMAP on Maven Central (tech.molecules:external-umap-java 1.0, a
 * copy of Tag.bio's port) lost every neighbourhood on well-separated synthetic clusters (10-NN
 * agreement at chance, coordinates in the tens of thousands; docs/benchmarks.md). The defaults are
 * umap-learn's (min_dist 0.1, spread 1, 500 epochs for small data, learning rate 1, 5 negative
 * samples per edge sample, gradients clipped at 4). Exact neighbours and a dense eigen-decomposition
 * are used, which suits the sizes of a level (a novel has about 600 units). One thread and one
 * seeded generator make the output a function of the vectors and the seed.
 */
final class Umap {

    /** The curve 1 / (1 + a d^(2b)) fitted to min_dist 0.1 and spread 1, as umap-learn fits it. */
    static final double A = 1.576943460405378;

    static final double B = 0.8950608781227859;

    private static final int EPOCHS = 500;
    private static final int NEGATIVE_SAMPLES = 5;
    private static final double CLIP = 4;
    private static final double BANDWIDTH_TOLERANCE = 1e-5;
    /**
     * The most points started from the spectral embedding: its dense eigen-decomposition grows as
     * n³ (about 3 s for 600 points on one loaded core), so larger levels start from uniform random
     * positions, umap-learn's other start.
     */
    static final int MAX_SPECTRAL = 1000;

    private Umap() {}

    /**
     * The vectors laid out in {@code dimensions} dimensions.
     *
     * @param neighbours the neighbourhood size, the point itself included (umap-learn's n_neighbors)
     */
    static double[][] embed(List<float[]> vectors, int dimensions, int neighbours, long seed) {
        int n = vectors.size();
        if (n < 3 || dimensions >= n - 1) {
            throw new IllegalArgumentException("UMAP needs more points than dimensions + 1");
        }
        int k = Math.max(2, Math.min(neighbours, n));
        double[][] graph = fuzzySet(distances(vectors), k);
        SplittableRandom random = new SplittableRandom(seed);
        double[][] layout = n <= MAX_SPECTRAL ? spectral(graph, dimensions, random) : uniform(n, dimensions, random);
        optimise(layout, graph, random);
        return layout;
    }

    /** Cosine distances between all pairs. */
    static double[][] distances(List<float[]> vectors) {
        int n = vectors.size();
        float[][] unit = vectors.stream().map(SemanticClusters::normalised).toArray(float[][]::new);
        double[][] d = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                double v = Math.max(0, 1 - SemanticClusters.dot(unit[i], unit[j]));
                d[i][j] = v;
                d[j][i] = v;
            }
        }
        return d;
    }

    /** The symmetric membership strengths of the fuzzy union of the points' local neighbourhoods. */
    static double[][] fuzzySet(double[][] distance, int k) {
        int n = distance.length;
        double[][] directed = new double[n][n];
        double target = Math.log(k) / Math.log(2);
        double meanAll = 0;
        for (double[] row : distance) {
            for (double v : row) {
                meanAll += v / ((double) n * n);
            }
        }
        for (int i = 0; i < n; i++) {
            final int from = i;
            // the k - 1 nearest others (umap-learn counts the point itself as its first neighbour)
            int[] near = java.util.stream.IntStream.range(0, n)
                    .filter(j -> j != from)
                    .boxed()
                    .sorted(Comparator.<Integer>comparingDouble(j -> distance[from][j])
                            .thenComparingInt(j -> j))
                    .limit(k - 1)
                    .mapToInt(Integer::intValue)
                    .toArray();
            double rho = distance[i][near[0]];
            double sigma = bandwidth(distance[i], near, rho, target);
            double mean = Arrays.stream(near)
                    .mapToDouble(j -> distance[from][j])
                    .average()
                    .orElse(0);
            // umap-learn's floor on the bandwidth, against points whose neighbours are all at rho
            sigma = Math.max(sigma, 1e-3 * (rho > 0 ? mean : meanAll));
            for (int j : near) {
                double excess = distance[i][j] - rho;
                directed[i][j] = excess <= 0 || sigma == 0 ? 1 : Math.exp(-excess / sigma);
            }
        }
        double[][] union = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                double a = directed[i][j];
                double b = directed[j][i];
                union[i][j] = a + b - a * b;
            }
        }
        return union;
    }

    /** The bandwidth whose memberships of the neighbours sum to {@code target}, by bisection. */
    private static double bandwidth(double[] row, int[] near, double rho, double target) {
        double lo = 0;
        double hi = Double.POSITIVE_INFINITY;
        double mid = 1;
        for (int iteration = 0; iteration < 64; iteration++) {
            double sum = 0;
            for (int j : near) {
                double excess = row[j] - rho;
                sum += excess > 0 ? Math.exp(-excess / mid) : 1;
            }
            if (Math.abs(sum - target) < BANDWIDTH_TOLERANCE) {
                break;
            }
            if (sum > target) {
                hi = mid;
                mid = (lo + hi) / 2;
            } else {
                lo = mid;
                mid = hi == Double.POSITIVE_INFINITY ? mid * 2 : (lo + hi) / 2;
            }
        }
        return mid;
    }

    /**
     * The start of the layout: the eigenvectors of the graph's normalised adjacency after the
     * trivial one (the Laplacian eigenmap umap-learn starts from), with a fixed sign, scaled to
     * [0, 10] per dimension with a little seeded noise.
     */
    static double[][] spectral(double[][] graph, int dimensions, SplittableRandom random) {
        int n = graph.length;
        double[] degree = new double[n];
        for (int i = 0; i < n; i++) {
            for (double w : graph[i]) {
                degree[i] += w;
            }
        }
        double[][] normalised = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                double scale = Math.sqrt(degree[i] * degree[j]);
                normalised[i][j] = scale == 0 ? 0 : graph[i][j] / scale;
            }
        }
        EigenDecomposition eigen = new EigenDecomposition(new Array2DRowRealMatrix(normalised, false));
        double[] values = eigen.getRealEigenvalues();
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.<Integer>comparingDouble(i -> -values[i]).thenComparingInt(i -> i));
        double[][] layout = new double[n][dimensions];
        for (int c = 0; c < dimensions; c++) {
            double[] u = eigen.getEigenvector(order[c + 1]).toArray();
            int pivot = 0;
            for (int i = 1; i < n; i++) {
                if (Math.abs(u[i]) > Math.abs(u[pivot])) {
                    pivot = i;
                }
            }
            double sign = u[pivot] < 0 ? -1 : 1;
            for (int i = 0; i < n; i++) {
                layout[i][c] = sign * u[i];
            }
        }
        for (int c = 0; c < dimensions; c++) {
            double min = Double.POSITIVE_INFINITY;
            double max = Double.NEGATIVE_INFINITY;
            for (double[] p : layout) {
                min = Math.min(min, p[c]);
                max = Math.max(max, p[c]);
            }
            double range = max - min;
            for (double[] p : layout) {
                p[c] = (range == 0 ? 0 : 10 * (p[c] - min) / range) + 1e-4 * random.nextGaussian();
            }
        }
        return layout;
    }

    /** umap-learn's random start: uniform in [-10, 10] in every dimension. */
    static double[][] uniform(int n, int dimensions, SplittableRandom random) {
        double[][] layout = new double[n][dimensions];
        for (double[] p : layout) {
            for (int c = 0; c < dimensions; c++) {
                p[c] = random.nextDouble(-10, 10);
            }
        }
        return layout;
    }

    /**
     * umap-learn's layout: every edge is sampled in proportion to its weight (an edge of a
     * hundredth of the heaviest or less never), each sample pulls its two ends together and pushes
     * the first away from a few random points, with a learning rate falling linearly to zero.
     */
    private static void optimise(double[][] layout, double[][] graph, SplittableRandom random) {
        int n = graph.length;
        int dimensions = layout[0].length;
        Edges edges = Edges.of(graph);
        int[] head = edges.head();
        int[] tail = edges.tail();
        double[] epochsPerSample = edges.epochsPerSample();
        double[] nextSample = epochsPerSample.clone();
        double[] epochsPerNegative = new double[head.length];
        double[] nextNegative = new double[head.length];
        for (int i = 0; i < head.length; i++) {
            epochsPerNegative[i] = epochsPerSample[i] / NEGATIVE_SAMPLES;
            nextNegative[i] = epochsPerNegative[i];
        }
        for (int epoch = 0; epoch < EPOCHS; epoch++) {
            double alpha = 1.0 - (double) epoch / EPOCHS;
            for (int i = 0; i < head.length; i++) {
                if (nextSample[i] > epoch) {
                    continue;
                }
                double[] current = layout[head[i]];
                double[] other = layout[tail[i]];
                double d2 = squaredDistance(current, other);
                double attract = d2 > 0 ? -2 * A * B * Math.pow(d2, B - 1) / (A * Math.pow(d2, B) + 1) : 0;
                for (int c = 0; c < dimensions; c++) {
                    double g = clip(attract * (current[c] - other[c]));
                    current[c] += g * alpha;
                    other[c] -= g * alpha;
                }
                nextSample[i] += epochsPerSample[i];
                int negatives = (int) ((epoch - nextNegative[i]) / epochsPerNegative[i]);
                for (int s = 0; s < negatives; s++) {
                    int k = random.nextInt(n);
                    if (k == head[i]) {
                        continue;
                    }
                    double[] away = layout[k];
                    double q2 = squaredDistance(current, away);
                    double repel = q2 > 0 ? 2 * B / ((0.001 + q2) * (A * Math.pow(q2, B) + 1)) : 0;
                    for (int c = 0; c < dimensions; c++) {
                        double g = repel > 0 ? clip(repel * (current[c] - away[c])) : CLIP;
                        current[c] += g * alpha;
                    }
                }
                nextNegative[i] += negatives * epochsPerNegative[i];
            }
        }
    }

    /**
     * The graph's edges that get sampled, with how many epochs pass between two samples of each: the
     * heaviest edge every epoch, a lighter one in proportion to its weight, and one of a hundredth of the
     * heaviest or less never.
     */
    private record Edges(int[] head, int[] tail, double[] epochsPerSample) {

        static Edges of(double[][] graph) {
            double maxWeight = 0;
            for (double[] row : graph) {
                for (double w : row) {
                    maxWeight = Math.max(maxWeight, w);
                }
            }
            int n = graph.length;
            List<int[]> kept = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    if (graph[i][j] >= maxWeight / EPOCHS && graph[i][j] > 0) {
                        kept.add(new int[] {i, j});
                    }
                }
            }
            int[] head = new int[kept.size()];
            int[] tail = new int[kept.size()];
            double[] epochsPerSample = new double[kept.size()];
            for (int e = 0; e < kept.size(); e++) {
                head[e] = kept.get(e)[0];
                tail[e] = kept.get(e)[1];
                epochsPerSample[e] = maxWeight / graph[head[e]][tail[e]];
            }
            return new Edges(head, tail, epochsPerSample);
        }
    }

    private static double squaredDistance(double[] a, double[] b) {
        double sum = 0;
        for (int c = 0; c < a.length; c++) {
            double d = a[c] - b[c];
            sum += d * d;
        }
        return sum;
    }

    private static double clip(double g) {
        return Math.max(-CLIP, Math.min(CLIP, g));
    }
}
