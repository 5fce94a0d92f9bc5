package io.lorekeeper.comorag;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.apache.commons.math3.distribution.MixtureMultivariateNormalDistribution;
import org.apache.commons.math3.distribution.MultivariateNormalDistribution;
import org.apache.commons.math3.distribution.fitting.MultivariateNormalMixtureExpectationMaximization;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.EigenDecomposition;
import org.apache.commons.math3.linear.RealMatrix;
import org.apache.commons.math3.ml.clustering.CentroidCluster;
import org.apache.commons.math3.ml.clustering.DoublePoint;
import org.apache.commons.math3.ml.clustering.KMeansPlusPlusClusterer;
import org.apache.commons.math3.ml.distance.EuclideanDistance;
import org.apache.commons.math3.random.JDKRandomGenerator;
import org.apache.commons.math3.stat.correlation.Covariance;
import org.apache.commons.math3.util.Pair;

/**
 * The clusters of one level of the semantic layer as RAPTOR finds them: the embeddings are reduced
 * to a few dimensions, Gaussian mixtures of 1 to {@code maxComponents} components are fitted by EM
 * and the one with the lowest BIC is kept, and each node joins every cluster whose posterior for it
 * is at least {@code threshold} (soft assignment: a node between two themes sits in both). A
 * cluster larger than {@code maxSize} is clustered again on its own members (RAPTOR's local
 * clustering), and split along its main axis when that finds no structure.
 *
 * <p>RAPTOR reduces with UMAP; Java has no maintained UMAP, so this reduces with PCA (Commons Math,
 * Apache-2.0), which keeps the directions of largest variance but not UMAP's local neighbourhoods.
 * Each mixture is initialised by k-means++ under the seed (as scikit-learn's is), so the same
 * vectors and seed always give the same clusters. Clusters come in the order of their first member.
 */
final class SemanticMixture {

    /** Dimensions the embeddings are reduced to (RAPTOR's reference code: 10). */
    static final int DIMENSIONS = 10;
    /** The most mixture components tried per fit (RAPTOR: 50). */
    static final int MAX_COMPONENTS = 50;

    private static final int EM_ITERATIONS = 200;
    private static final double EM_TOLERANCE = 1e-5;
    private static final int MAX_DEPTH = 6;

    private SemanticMixture() {}

    static List<List<Integer>> of(List<float[]> vectors, int maxSize, double threshold, long seed) {
        int n = vectors.size();
        if (n == 0) {
            return List.of();
        }
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            all.add(i);
        }
        Set<List<Integer>> out = new LinkedHashSet<>();
        cluster(vectors, all, maxSize, threshold, seed, 0, out);
        List<List<Integer>> clusters = new ArrayList<>(out);
        // a cluster inside another one adds nothing to the layer
        clusters.removeIf(c -> clusters.stream().anyMatch(o -> o != c && o.size() > c.size() && o.containsAll(c)));
        clusters.sort(Comparator.<List<Integer>>comparingInt(List::getFirst).thenComparingInt(List::size));
        return clusters;
    }

    private static void cluster(
            List<float[]> vectors,
            List<Integer> members,
            int maxSize,
            double threshold,
            long seed,
            int depth,
            Set<List<Integer>> out) {
        // the global fit always runs (RAPTOR clusters every level); a local one only for a cluster too large
        if (members.size() <= maxSize && (depth > 0 || members.size() < 2)) {
            out.add(members);
            return;
        }
        List<List<Integer>> found = depth < MAX_DEPTH ? soft(vectors, members, threshold, seed) : List.of(members);
        if (found.size() <= 1) {
            split(vectors, members, maxSize).forEach(out::add);
            return;
        }
        depth = Math.max(depth, 1);
        for (List<Integer> c : found) {
            if (c.size() >= members.size()) {
                split(vectors, c, maxSize).forEach(out::add);
            } else {
                cluster(vectors, c, maxSize, threshold, seed, depth + 1, out);
            }
        }
    }

    /** The soft clusters of the mixture with the lowest BIC, as lists of the members' indices. */
    static List<List<Integer>> soft(List<float[]> vectors, List<Integer> members, double threshold, long seed) {
        int n = members.size();
        double[][] reduced = reduce(members.stream().map(vectors::get).toList(), dimensions(n));
        int d = reduced[0].length;
        Fit best = null;
        int maxK = Math.min(MAX_COMPONENTS, n / (d + 1));
        for (int k = 1; k <= maxK; k++) {
            Fit fit = fit(reduced, k, seed);
            if (fit != null && (best == null || fit.bic() < best.bic())) {
                best = fit;
            }
        }
        if (best == null || best.k() == 1) {
            return List.of(members);
        }
        List<TreeSet<Integer>> clusters = new ArrayList<>();
        for (int j = 0; j < best.k(); j++) {
            clusters.add(new TreeSet<>());
        }
        for (int i = 0; i < n; i++) {
            double[] posterior = best.posterior(reduced[i]);
            int top = 0;
            for (int j = 0; j < posterior.length; j++) {
                if (posterior[j] >= threshold) {
                    clusters.get(j).add(members.get(i));
                }
                if (posterior[j] > posterior[top]) {
                    top = j;
                }
            }
            // every node belongs somewhere, even when its densities underflow
            clusters.get(top).add(members.get(i));
        }
        return clusters.stream()
                .filter(c -> !c.isEmpty())
                .map(c -> (List<Integer>) new ArrayList<>(c))
                .distinct()
                .toList();
    }

    /** Fewer dimensions for few points, so that each component can have a full covariance. */
    static int dimensions(int n) {
        return Math.max(1, Math.min(DIMENSIONS, n / 4));
    }

    /** A fitted mixture and its Bayesian information criterion. */
    record Fit(int k, List<Pair<Double, MultivariateNormalDistribution>> components, double bic) {
        double[] posterior(double[] x) {
            double[] p = new double[k];
            double sum = 0;
            for (int j = 0; j < k; j++) {
                p[j] = components.get(j).getFirst()
                        * components.get(j).getSecond().density(x);
                sum += p[j];
            }
            for (int j = 0; j < k; j++) {
                p[j] = sum > 0 && Double.isFinite(sum) ? p[j] / sum : 0;
            }
            return p;
        }
    }

    /** EM from a k-means++ start under the seed; null when a covariance turns singular. */
    static Fit fit(double[][] data, int k, long seed) {
        int n = data.length;
        int d = data[0].length;
        try {
            MixtureMultivariateNormalDistribution start = k == 1 ? single(data) : kmeansStart(data, k, seed);
            MultivariateNormalMixtureExpectationMaximization em =
                    new MultivariateNormalMixtureExpectationMaximization(data);
            em.fit(start, EM_ITERATIONS, EM_TOLERANCE);
            double logLikelihood = em.getLogLikelihood() * n;
            double parameters = k * d + k * d * (d + 1) / 2.0 + (k - 1);
            double bic = -2 * logLikelihood + parameters * Math.log(n);
            if (!Double.isFinite(bic)) {
                return null;
            }
            return new Fit(k, em.getFittedModel().getComponents(), bic);
        } catch (RuntimeException singular) {
            return null;
        }
    }

    private static MixtureMultivariateNormalDistribution single(double[][] data) {
        return new MixtureMultivariateNormalDistribution(List.of(new Pair<>(1.0, gaussian(List.of(data)))));
    }

    private static MixtureMultivariateNormalDistribution kmeansStart(double[][] data, int k, long seed) {
        List<DoublePoint> points = new ArrayList<>();
        for (double[] x : data) {
            points.add(new DoublePoint(x));
        }
        JDKRandomGenerator random = new JDKRandomGenerator();
        random.setSeed(seed);
        List<CentroidCluster<DoublePoint>> clusters =
                new KMeansPlusPlusClusterer<DoublePoint>(k, 100, new EuclideanDistance(), random).cluster(points);
        List<Pair<Double, MultivariateNormalDistribution>> components = new ArrayList<>();
        for (CentroidCluster<DoublePoint> c : clusters) {
            if (c.getPoints().size() <= data[0].length) {
                throw new IllegalStateException("a component too small for a full covariance");
            }
            components.add(new Pair<>(
                    (double) c.getPoints().size() / data.length,
                    gaussian(c.getPoints().stream().map(DoublePoint::getPoint).toList())));
        }
        return new MixtureMultivariateNormalDistribution(components);
    }

    /** A Gaussian with the points' mean and covariance (plus a small ridge, as scikit-learn's reg_covar). */
    private static MultivariateNormalDistribution gaussian(List<double[]> points) {
        int d = points.getFirst().length;
        double[] mean = new double[d];
        for (double[] p : points) {
            for (int i = 0; i < d; i++) {
                mean[i] += p[i] / points.size();
            }
        }
        double[][] cov = d == 1 || points.size() < 2
                ? new double[d][d]
                : new Covariance(points.toArray(double[][]::new), false)
                        .getCovarianceMatrix()
                        .getData();
        if (d == 1 && points.size() >= 2) {
            double v = 0;
            for (double[] p : points) {
                v += (p[0] - mean[0]) * (p[0] - mean[0]) / points.size();
            }
            cov[0][0] = v;
        }
        for (int i = 0; i < d; i++) {
            cov[i][i] += 1e-6;
        }
        return new MultivariateNormalDistribution(mean, cov);
    }

    /** The vectors projected on their first principal components (PCA by eigen-decomposition of the covariance). */
    static double[][] reduce(List<float[]> vectors, int dimensions) {
        int n = vectors.size();
        int full = vectors.getFirst().length;
        double[][] x = new double[n][full];
        double[] mean = new double[full];
        for (int i = 0; i < n; i++) {
            float[] v = vectors.get(i);
            for (int j = 0; j < full; j++) {
                x[i][j] = v[j];
                mean[j] += v[j] / n;
            }
        }
        for (double[] row : x) {
            for (int j = 0; j < full; j++) {
                row[j] -= mean[j];
            }
        }
        int d = Math.min(dimensions, Math.min(full, Math.max(1, n - 1)));
        // the n x n Gram matrix has the same non-zero spectrum as the covariance and is smaller for n < 384
        RealMatrix data = new Array2DRowRealMatrix(x, false);
        RealMatrix gram = data.multiply(data.transpose());
        EigenDecomposition eigen = new EigenDecomposition(gram);
        double[] values = eigen.getRealEigenvalues();
        Integer[] order = new Integer[values.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(
                order, Comparator.<Integer>comparingDouble(i -> -values[i]).thenComparingInt(i -> i));
        double[][] out = new double[n][d];
        for (int c = 0; c < d; c++) {
            double[] u = eigen.getEigenvector(order[c]).toArray();
            double scale = Math.sqrt(Math.max(values[order[c]], 0));
            // a fixed sign, so that the projection does not depend on the solver's choice
            int pivot = 0;
            for (int i = 1; i < n; i++) {
                if (Math.abs(u[i]) > Math.abs(u[pivot])) {
                    pivot = i;
                }
            }
            double sign = u[pivot] < 0 ? -1 : 1;
            for (int i = 0; i < n; i++) {
                out[i][c] = sign * u[i] * scale;
            }
        }
        return out;
    }

    /** Splits members into pieces of at most maxSize along their first principal axis. */
    private static List<List<Integer>> split(List<float[]> vectors, List<Integer> members, int maxSize) {
        if (members.size() <= maxSize) {
            return List.of(members);
        }
        double[][] axis = reduce(members.stream().map(vectors::get).toList(), 1);
        Integer[] order = new Integer[members.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(
                order, Comparator.<Integer>comparingDouble(i -> axis[i][0]).thenComparingInt(i -> i));
        int pieces = (members.size() + maxSize - 1) / maxSize;
        List<List<Integer>> out = new ArrayList<>();
        for (int p = 0; p < pieces; p++) {
            int from = p * members.size() / pieces;
            int to = (p + 1) * members.size() / pieces;
            TreeSet<Integer> piece = new TreeSet<>();
            for (int i = from; i < to; i++) {
                piece.add(members.get(order[i]));
            }
            out.add(new ArrayList<>(piece));
        }
        return out;
    }
}
