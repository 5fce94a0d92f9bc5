package io.lorekeeper.comorag;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How ComoRAG's index is built, under {@code lorekeeper.comorag} (question-time knobs are request
 * options, see {@link ComoRagOptions}).
 *
 * @param unitTokens        the most tokens in a veridical unit (paper: 512-token chunks); a unit is a
 *                          run of consecutive chunks of one page, so a single longer chunk stays one unit
 * @param clusterMaxSize    the most members of one semantic cluster (about RAPTOR's 3,500-token cap
 *                          on a cluster's text with 512-token units)
 * @param clustering        how the semantic layer clusters: {@code gmm}, RAPTOR's Gaussian mixture on
 *                          reduced embeddings with soft assignment ({@link SemanticMixture}, the paper),
 *                          or {@code leiden}, Leiden communities of a kNN graph ({@link SemanticClusters})
 * @param clusterThreshold  the posterior at or above which a node joins a mixture component (soft
 *                          assignment; a node may join several): the reference code's 0.01
 * @param clusterNeighbours k of the k-nearest-neighbour cosine graph of the {@code leiden} clustering
 * @param clusterSeed       the random seed of either clustering (the paper's seed is 0)
 * @param semanticLevels    the most levels of recursive cluster summaries (RAPTOR's reference code: 5)
 * @param episodicStride    units between the starts of two episodic windows; 0 means the window size
 *                          (non-overlapping windows; the paper does not state its stride)
 * @param episodicLevels    levels of episodic summaries; above 1, windows slide over the summaries of
 *                          the level below (the paper's optional recursion)
 * @param buildParallelism  model calls one index stage makes at a time (units, clusters and windows
 *                          are summarised independently of each other)
 */
@ConfigurationProperties("lorekeeper.comorag")
record ComoRagSettings(
        @DefaultValue("512") int unitTokens,
        @DefaultValue("7") int clusterMaxSize,
        @DefaultValue("gmm") String clustering,
        @DefaultValue("0.01") double clusterThreshold,
        @DefaultValue("10") int clusterNeighbours,
        @DefaultValue("0") long clusterSeed,
        @DefaultValue("5") int semanticLevels,
        @DefaultValue("0") int episodicStride,
        @DefaultValue("1") int episodicLevels,
        @DefaultValue("4") int buildParallelism) {

    ComoRagSettings {
        if (unitTokens < 16
                || !(GMM.equals(clustering) || LEIDEN.equals(clustering))
                || !(clusterThreshold > 0 && clusterThreshold <= 1)
                || clusterMaxSize < 2
                || clusterNeighbours < 1
                || semanticLevels < 1
                || episodicStride < 0
                || episodicLevels < 1
                || buildParallelism < 1) {
            throw new IllegalArgumentException("invalid lorekeeper.comorag settings");
        }
    }

    static final String GMM = "gmm";
    static final String LEIDEN = "leiden";

    static ComoRagSettings defaults() {
        return new ComoRagSettings(512, 7, GMM, 0.01, 10, 0, 5, 0, 1, 4);
    }

    /** The clusters of one level of the semantic layer, by the configured method. */
    java.util.List<java.util.List<Integer>> clusters(java.util.List<float[]> vectors) {
        return LEIDEN.equals(clustering)
                ? SemanticClusters.of(vectors, clusterNeighbours, clusterMaxSize, clusterSeed)
                : SemanticMixture.of(vectors, clusterMaxSize, clusterThreshold, clusterSeed);
    }
}
