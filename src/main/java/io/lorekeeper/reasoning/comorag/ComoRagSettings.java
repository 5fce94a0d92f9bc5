package io.lorekeeper.reasoning.comorag;

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
 * @param clusterNeighbours k of the k-nearest-neighbour cosine graph the semantic clusters are found in
 * @param clusterSeed       Leiden's random seed (the paper's seed is 0)
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
        @DefaultValue("10") int clusterNeighbours,
        @DefaultValue("0") long clusterSeed,
        @DefaultValue("5") int semanticLevels,
        @DefaultValue("0") int episodicStride,
        @DefaultValue("1") int episodicLevels,
        @DefaultValue("4") int buildParallelism) {

    ComoRagSettings {
        if (unitTokens < 16
                || clusterMaxSize < 2
                || clusterNeighbours < 1
                || semanticLevels < 1
                || episodicStride < 0
                || episodicLevels < 1
                || buildParallelism < 1) {
            throw new IllegalArgumentException("invalid lorekeeper.comorag settings");
        }
    }

    static ComoRagSettings defaults() {
        return new ComoRagSettings(512, 7, 10, 0, 5, 0, 1, 4);
    }
}
