package io.lorekeeper.comorag;

import java.util.List;
import java.util.function.Supplier;
import java.util.stream.IntStream;

import io.lorekeeper.comorag.ComoRagStore.Unit;
import io.lorekeeper.comorag.ComoRagStore.Vectored;
import io.lorekeeper.text.TokenCounter;

/**
 * Prints the first level of the semantic layer of a document's units under each clustering (the
 * default RAPTOR clustering with UMAP, the same with PCA, either with the earlier 7-member cap, and
 * Leiden): clusters by origin, sizes, memberships, the largest cluster's tokens and the time, on the
 * same vectors. The figures docs/benchmarks.md quotes.
 */
final class SemanticLevelReport {

    private SemanticLevelReport() {}

    static void print(List<Vectored<Unit>> units, String text) {
        List<float[]> vectors = units.stream().map(Vectored::vector).toList();
        int[] tokens = units.stream()
                .mapToInt(u -> TokenCounter.count(u.item().span().of(text)))
                .toArray();
        System.out.printf(
                "Semantic level 1 over %d units (%d tokens, median unit %d)%n",
                vectors.size(),
                IntStream.of(tokens).sum(),
                IntStream.of(tokens).sorted().toArray()[tokens.length / 2]);
        record Method(String name, Supplier<SemanticMixture.Clustering> clusters) {}
        ComoRagSettings paper = ComoRagSettings.defaults();
        for (Method m : List.of(
                new Method("gmm umap, token cap 3500 (default)", () -> paper.clusters(vectors, tokens)),
                new Method(
                        "gmm pca, token cap 3500",
                        () -> SemanticMixture.of(
                                vectors,
                                tokens,
                                new SemanticMixture.Params(SemanticMixture.Reduction.PCA, 3500, 0, 0.01, 0))),
                new Method(
                        "gmm umap, token cap 3500 and 7 members",
                        () -> SemanticMixture.of(
                                vectors,
                                tokens,
                                new SemanticMixture.Params(SemanticMixture.Reduction.UMAP, 3500, 7, 0.01, 0))),
                new Method(
                        "gmm pca, token cap 3500 and 7 members",
                        () -> SemanticMixture.of(
                                vectors,
                                tokens,
                                new SemanticMixture.Params(SemanticMixture.Reduction.PCA, 3500, 7, 0.01, 0))),
                new Method(
                        "leiden, 7 members",
                        () -> new ComoRagSettings(512, 3500, 0, "leiden", "umap", 0.01, 10, 0, 5, 0, 1, 4)
                                .clusters(vectors, tokens)))) {
            long t = System.nanoTime();
            SemanticMixture.Clustering clustering = m.clusters().get();
            double seconds = (System.nanoTime() - t) / 1e9;
            List<List<Integer>> clusters = clustering.members();
            int[] sizes = clusters.stream().mapToInt(List::size).sorted().toArray();
            int maxTokens = clusters.stream()
                    .mapToInt(c -> SemanticMixture.tokensOf(c, tokens))
                    .max()
                    .orElse(0);
            long multi = IntStream.range(0, vectors.size())
                    .filter(u -> clusters.stream().filter(c -> c.contains(u)).count() > 1)
                    .count();
            System.out.printf(
                    "Semantic level 1, %s: %d clusters, by origin %s (%d from a mixture);"
                            + " %d global components, %d local passes, %d re-clustered;"
                            + " sizes min %d, median %d, max %d; largest text %d tokens;"
                            + " %d memberships, %d units in two or more; %.1f s%n",
                    m.name(),
                    clusters.size(),
                    clustering.byOrigin(),
                    clustering.fromMixture(),
                    clustering.globalComponents(),
                    clustering.localPasses(),
                    clustering.reclustered(),
                    sizes[0],
                    sizes[sizes.length / 2],
                    sizes[sizes.length - 1],
                    maxTokens,
                    clustering.memberships(),
                    multi,
                    seconds);
        }
    }
}
