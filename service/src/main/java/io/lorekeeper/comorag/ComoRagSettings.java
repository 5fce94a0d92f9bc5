package io.lorekeeper.comorag;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How ComoRAG's index is built, under {@code lorekeeper.comorag} (question-time knobs are request
 * options, see {@link ComoRagOptions}).
 *
 * @param unitTokens        the most tokens in a veridical unit (paper: 512-token chunks); a unit is a
 *                          run of consecutive chunks of one page, so a single longer chunk stays one unit
 * @param clusterMaxTokens  the most tokens of the members' text in one semantic cluster (RAPTOR's
 *                          {@code max_length_in_cluster}, 3,500): a cluster over it is clustered again
 * @param clusterMaxSize    the most members of one semantic cluster, a cap on top of the token cap
 *                          (an engineering choice: fewer members per summary prompt); 0, the default,
 *                          means none under {@code gmm}, and ⌈clusterMaxTokens / unitTokens⌉ (7) under
 *                          {@code leiden}, whose communities need a member cap
 * @param clustering        how the semantic layer clusters: {@code gmm}, RAPTOR's Gaussian mixture on
 *                          reduced embeddings with soft assignment ({@link SemanticMixture}, the paper),
 *                          or {@code leiden}, Leiden communities of a kNN graph ({@link SemanticClusters})
 * @param reduction         how {@code gmm} reduces the embeddings before each fit: {@code umap}
 *                          (RAPTOR's, {@link Umap}) or {@code pca} (linear, the earlier reduction)
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
        @DefaultValue("3500") int clusterMaxTokens,
        @DefaultValue("0") int clusterMaxSize,
        @DefaultValue("gmm") String clustering,
        @DefaultValue("umap") String reduction,
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
                || !(UMAP.equals(reduction) || PCA.equals(reduction))
                || clusterMaxTokens < 1
                || !(clusterThreshold > 0 && clusterThreshold <= 1)
                || clusterMaxSize < 0
                || clusterMaxSize == 1
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
    static final String UMAP = "umap";
    static final String PCA = "pca";

    static ComoRagSettings defaults() {
        return new ComoRagSettings(512, 3500, 0, GMM, UMAP, 0.01, 10, 0, 5, 0, 1, 4);
    }

    /**
     * The clusters of one level of the semantic layer, by the configured method.
     *
     * @param tokens the tokens of each node's text, for the token cap
     */
    SemanticMixture.Clustering clusters(java.util.List<float[]> vectors, int[] tokens) {
        if (LEIDEN.equals(clustering)) {
            int cap =
                    clusterMaxSize > 0 ? clusterMaxSize : Math.max(2, (clusterMaxTokens + unitTokens - 1) / unitTokens);
            return SemanticMixture.Clustering.communities(
                    SemanticClusters.of(vectors, clusterNeighbours, cap, clusterSeed));
        }
        return SemanticMixture.of(vectors, tokens, mixture());
    }

    /** The {@code gmm} clustering's parameters. */
    SemanticMixture.Params mixture() {
        return new SemanticMixture.Params(
                PCA.equals(reduction) ? SemanticMixture.Reduction.PCA : SemanticMixture.Reduction.UMAP,
                clusterMaxTokens,
                clusterMaxSize,
                clusterThreshold,
                clusterSeed);
    }
}
