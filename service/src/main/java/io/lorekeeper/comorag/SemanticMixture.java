package io.lorekeeper.comorag;

import java.util.ArrayList;
import java.util.Comparator;
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
 * The clusters of one level of the semantic layer as RAPTOR finds them. The level's vectors are
 * reduced to a few dimensions ({@link Reduction#UMAP}, RAPTOR's, with about √n neighbours;
 * {@link Reduction#PCA} as an option), Gaussian mixtures of 1 to {@code MAX_COMPONENTS} components
 * are fitted by EM and the one with the lowest BIC is kept, and each node joins every component
 * whose posterior for it is at least the threshold (soft assignment: a node between two themes sits
 * in both). Then every global component of more than {@code DIMENSIONS + 1} members is reduced
 * again on its own (UMAP with 10 neighbours) and fitted again (RAPTOR's local pass); its local
 * components are the clusters. A cluster whose members' text exceeds the token cap (RAPTOR: 3,500)
 * is clustered again from the start on its own members (RAPTOR's recursion; here BIC chooses among
 * mixtures of at least the pieces the cap needs, in fewer dimensions if need be, where RAPTOR may
 * pick one component again and recurse without end), and only when that finds no structure is it
 * split along its main axis into pieces under the cap. An optional member
 * cap ({@code maxSize > 0}) counts as a cap too.
 *
 * <p>Each mixture is initialised by k-means++ under the seed (as scikit-learn's is) and UMAP is
 * seeded, so the same vectors and seed always give the same clusters. Clusters come in the order of
 * their first member; each says which step made it ({@link Origin}).
 */
final class SemanticMixture {

    /** Dimensions the embeddings are reduced to (RAPTOR's reference code: 10). */
    static final int DIMENSIONS = 10;
    /** The most mixture components tried per fit (RAPTOR: 50). */
    static final int MAX_COMPONENTS = 50;
    /** RAPTOR's neighbourhood size for the local reduction of one global component. */
    static final int LOCAL_NEIGHBOURS = 10;

    private static final int EM_ITERATIONS = 200;
    private static final double EM_TOLERANCE = 1e-5;
    private static final int MAX_DEPTH = 6;

    private SemanticMixture() {}

    /** How the vectors are reduced before a mixture is fitted. */
    enum Reduction {
        /** UMAP ({@link Umap}), as RAPTOR reduces. */
        UMAP,
        /** PCA, the directions of largest variance (linear; loses UMAP's local neighbourhoods). */
        PCA
    }

    /** Which step made a cluster. */
    enum Origin {
        /** a component of the mixture over the whole level, kept whole (too small for a local pass, or one local component) */
        GLOBAL,
        /** a component of the local mixture over one global component */
        LOCAL,
        /** a component of a mixture over a cluster that was over the cap (RAPTOR's recursion) */
        RECLUSTERED,
        /** a piece of a cluster over the cap that no mixture separated, cut along its main axis */
        SPLIT,
        /** a Leiden community ({@code clustering: leiden}, {@link SemanticClusters}) */
        COMMUNITY
    }

    /**
     * How a level is clustered.
     *
     * @param maxTokens the most tokens of the members' text in one cluster (several for a single member too long alone)
     * @param maxSize   the most members of one cluster; 0: no member cap (RAPTOR)
     */
    record Params(Reduction reduction, int maxTokens, int maxSize, double threshold, long seed) {

        static Params raptor(double threshold, long seed) {
            return new Params(Reduction.UMAP, 3500, 0, threshold, seed);
        }

        /** How many pieces the caps need {@code members} cut into, at least. */
        int pieces(List<Integer> members, int[] tokens) {
            int byTokens = (int) Math.ceil(tokensOf(members, tokens) / (double) maxTokens);
            int bySize = maxSize > 0 ? (members.size() + maxSize - 1) / maxSize : 1;
            return Math.max(1, Math.max(byTokens, bySize));
        }

        boolean over(List<Integer> members, int[] tokens) {
            return members.size() > 1
                    && (tokensOf(members, tokens) > maxTokens || (maxSize > 0 && members.size() > maxSize));
        }
    }

    /** One cluster: its members (indices into the level's nodes) and the step that made it. */
    record Cluster(List<Integer> members, Origin origin) {}

    /**
     * A level's clusters and what the clustering did.
     *
     * @param globalComponents components of the mixture over the whole level
     * @param localPasses      local fits run over global components (RAPTOR: one per component larger than 11)
     * @param reclustered      clusters over the cap clustered again
     */
    record Clustering(List<Cluster> clusters, int globalComponents, int localPasses, int reclustered) {

        static Clustering communities(List<List<Integer>> communities) {
            return new Clustering(
                    communities.stream()
                            .map(c -> new Cluster(c, Origin.COMMUNITY))
                            .toList(),
                    0,
                    0,
                    0);
        }

        List<List<Integer>> members() {
            return clusters.stream().map(Cluster::members).toList();
        }

        /** How many clusters each step made, every origin named. */
        java.util.Map<Origin, Integer> byOrigin() {
            java.util.Map<Origin, Integer> counts = new java.util.EnumMap<>(Origin.class);
            for (Origin o : Origin.values()) {
                counts.put(o, 0);
            }
            clusters.forEach(c -> counts.merge(c.origin(), 1, Integer::sum));
            return counts;
        }

        /** Clusters from a mixture (global, local or reclustered), not from a split. */
        int fromMixture() {
            java.util.Map<Origin, Integer> counts = byOrigin();
            return counts.get(Origin.GLOBAL) + counts.get(Origin.LOCAL) + counts.get(Origin.RECLUSTERED);
        }

        long memberships() {
            return clusters.stream().mapToLong(c -> c.members().size()).sum();
        }
    }

    /** The clusters of the nodes' {@code vectors}, each node counting {@code tokens[i]} tokens toward the cap. */
    static Clustering of(List<float[]> vectors, int[] tokens, Params params) {
        int n = vectors.size();
        if (n == 0) {
            return new Clustering(List.of(), 0, 0, 0);
        }
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            all.add(i);
        }
        Run run = new Run(vectors, tokens, params);
        run.cluster(all, 0);
        List<Cluster> clusters = new ArrayList<>();
        Set<List<Integer>> seen = new java.util.HashSet<>();
        for (Cluster c : run.out) {
            if (seen.add(c.members())) {
                clusters.add(c);
            }
        }
        // a cluster inside another one adds nothing to the layer
        List<Cluster> kept = clusters.stream()
                .filter(c -> clusters.stream()
                        .noneMatch(o -> o != c
                                && o.members().size() > c.members().size()
                                && o.members().containsAll(c.members())))
                .sorted(Comparator.<Cluster>comparingInt(c -> c.members().getFirst())
                        .thenComparingInt(c -> c.members().size()))
                .toList();
        return new Clustering(kept, run.globalComponents, run.localPasses, run.reclustered);
    }

    static int tokensOf(List<Integer> members, int[] tokens) {
        long sum = 0;
        for (int m : members) {
            sum += tokens[m];
        }
        return (int) Math.min(Integer.MAX_VALUE, sum);
    }

    /** One level's clustering in progress. */
    private static final class Run {
        private final List<float[]> vectors;
        private final int[] tokens;
        private final Params params;
        private final List<Cluster> out = new ArrayList<>();
        private int globalComponents;
        private int localPasses;
        private int reclustered;

        Run(List<float[]> vectors, int[] tokens, Params params) {
            this.vectors = vectors;
            this.tokens = tokens;
            this.params = params;
        }

        /** RAPTOR's clustering of {@code members}: a global fit, a local fit per global component, the cap. */
        void cluster(List<Integer> members, int depth) {
            if (members.size() < 2) {
                out.add(new Cluster(members, depth == 0 ? Origin.GLOBAL : Origin.RECLUSTERED));
                return;
            }
            // a cluster re-clustered for being over the cap must come apart: BIC chooses among
            // mixtures of at least as many components as the cap needs pieces
            int least = depth == 0 ? 1 : params.pieces(members, tokens);
            List<List<Integer>> global = depth < MAX_DEPTH ? soft(members, true, least) : List.of(members);
            if (depth == 0) {
                globalComponents = global.size();
            }
            List<Cluster> found = new ArrayList<>();
            for (List<Integer> component : global) {
                List<List<Integer>> local = List.of(component);
                if (component.size() > DIMENSIONS + 1 && depth < MAX_DEPTH) {
                    localPasses++;
                    local = soft(component, false, 1);
                }
                Origin origin = depth > 0 ? Origin.RECLUSTERED : local.size() > 1 ? Origin.LOCAL : Origin.GLOBAL;
                local.forEach(c -> found.add(new Cluster(c, origin)));
            }
            for (Cluster c : found) {
                if (!params.over(c.members(), tokens)) {
                    out.add(c);
                } else if (c.members().size() < members.size() && depth < MAX_DEPTH) {
                    reclustered++;
                    cluster(c.members(), depth + 1);
                } else {
                    split(c.members()).forEach(p -> out.add(new Cluster(p, Origin.SPLIT)));
                }
            }
        }

        /** The soft clusters of the mixture with the lowest BIC over the members' reduced vectors. */
        private List<List<Integer>> soft(List<Integer> members, boolean global, int least) {
            int n = members.size();
            List<float[]> own = members.stream().map(vectors::get).toList();
            int top = dimensions(n);
            if (least > 1) {
                // room for the components the cap needs, each with a full covariance
                top = Math.max(1, Math.min(top, n / least - 1));
            }
            for (int d = top; d >= 1; d--) {
                // UMAP needs more points than its neighbours can describe; a handful of nodes is reduced linearly
                double[][] reduced = params.reduction() == Reduction.UMAP && n > DIMENSIONS + 1
                        ? Umap.embed(own, d, global ? (int) Math.sqrt(n - 1) : LOCAL_NEIGHBOURS, params.seed())
                        : reduce(own, d);
                List<List<Integer>> found =
                        SemanticMixture.soft(reduced, members, params.threshold(), params.seed(), least);
                if (least <= 1 || found.size() > 1) {
                    return found;
                }
                // a cluster that must come apart is fitted again in fewer dimensions before it is split
            }
            return List.of(members);
        }

        /** Splits members along their first principal axis into halves of equal text until each is under the caps. */
        private List<List<Integer>> split(List<Integer> members) {
            if (!params.over(members, tokens)) {
                return List.of(members);
            }
            double[][] axis = reduce(members.stream().map(vectors::get).toList(), 1);
            Integer[] order = new Integer[members.size()];
            for (int i = 0; i < order.length; i++) {
                order[i] = i;
            }
            java.util.Arrays.sort(
                    order, Comparator.<Integer>comparingDouble(i -> axis[i][0]).thenComparingInt(i -> i));
            long total = tokensOf(members, tokens);
            long running = 0;
            int cut = 1;
            for (int i = 0; i < order.length - 1; i++) {
                running += tokens[members.get(order[i])];
                cut = i + 1;
                if (running * 2 >= total) {
                    break;
                }
            }
            List<List<Integer>> out = new ArrayList<>();
            for (int[] range : new int[][] {{0, cut}, {cut, order.length}}) {
                TreeSet<Integer> piece = new TreeSet<>();
                for (int i = range[0]; i < range[1]; i++) {
                    piece.add(members.get(order[i]));
                }
                out.addAll(split(new ArrayList<>(piece)));
            }
            return out;
        }
    }

    /** The soft clusters of the mixture with the lowest BIC over {@code reduced}, as lists of {@code members}. */
    static List<List<Integer>> soft(double[][] reduced, List<Integer> members, double threshold, long seed) {
        return soft(reduced, members, threshold, seed, 1);
    }

    /** The same, BIC choosing among mixtures of at least {@code least} components (when any of them can be fitted). */
    static List<List<Integer>> soft(double[][] reduced, List<Integer> members, double threshold, long seed, int least) {
        int n = members.size();
        int d = reduced[0].length;
        Fit best = null;
        int maxK = Math.min(MAX_COMPONENTS, n / (d + 1));
        for (int k = Math.max(1, Math.min(least, maxK)); k <= maxK; k++) {
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
}
