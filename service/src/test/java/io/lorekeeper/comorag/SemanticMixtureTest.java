package io.lorekeeper.comorag;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.lorekeeper.comorag.SemanticMixture.Clustering;
import io.lorekeeper.comorag.SemanticMixture.Origin;
import io.lorekeeper.comorag.SemanticMixture.Params;
import io.lorekeeper.comorag.SemanticMixture.Reduction;

/** The semantic layer's clustering as RAPTOR does it: UMAP, the global and local mixtures, the token cap. */
class SemanticMixtureTest {

    @Test
    void umapIsDeterministicUnderItsSeedAndKeepsSeparatedThemesApart() {
        // six themes of 40 points in 384 dimensions, noisy enough that a theme is a cloud, not a point
        List<float[]> vectors = themes(6, 40, 384, 1.0f, 3);

        double[][] layout = Umap.embed(vectors, 10, 15, 0);

        assertThat(Umap.embed(new ArrayList<>(vectors), 10, 15, 0)).isDeepEqualTo(layout);
        assertThat(Arrays.deepEquals(Umap.embed(vectors, 10, 15, 1), layout)).isFalse();
        assertThat(sameThemeAmongNearest(layout, 6, 10))
                .as("the 10 nearest points in the layout are of the point's own theme")
                .isGreaterThan(0.95);
        // points of one theme sit closer to each other than to any other theme
        double within = meanDistance(layout, 6, true);
        double between = meanDistance(layout, 6, false);
        assertThat(within * 3).isLessThan(between);
    }

    @Test
    void umapKeepsNeighbourhoodsThatALinearProjectionMixes() {
        // twelve themes: ten dimensions of PCA cannot hold twelve directions apart, UMAP's graph can
        List<float[]> vectors = themes(12, 20, 384, 1.2f, 11);

        double umap = sameThemeAmongNearest(Umap.embed(vectors, 2, 15, 0), 12, 5);
        double pca = sameThemeAmongNearest(SemanticMixture.reduce(vectors, 2), 12, 5);

        assertThat(umap).isGreaterThan(0.9).isGreaterThan(pca);
    }

    @Test
    void everyGlobalComponentGetsALocalPassAndTheClustersAreTheSubThemes() {
        // three themes, each made of four sub-themes of 15 points (UMAP's global layout already
        // separates the sub-themes; the local pass still runs on every global component)
        List<float[]> vectors = nested(3, 4, 15, 17);
        int[] tokens = ones(vectors.size());

        Clustering clustering =
                SemanticMixture.of(vectors, tokens, new Params(Reduction.UMAP, Integer.MAX_VALUE, 0, 0.01, 0));

        assertThat(clustering.globalComponents()).isGreaterThanOrEqualTo(2);
        assertThat(clustering.localPasses())
                .as("a local pass for every global component (each has more than 11 members)")
                .isEqualTo(clustering.globalComponents());
        assertThat(clustering.reclustered()).isZero();
        assertThat(clustering.byOrigin().get(Origin.SPLIT)).isZero();
        assertThat(clustering.byOrigin().get(Origin.RECLUSTERED)).isZero();
        assertThat(clustering.clusters()).hasSizeGreaterThanOrEqualTo(12);
        assertThat(placed(clustering)).isEqualTo(vectors.size());
        // each cluster holds one sub-theme, bar the few nodes a soft assignment puts in two
        for (List<Integer> c : clustering.members()) {
            long top = c.stream()
                    .collect(
                            java.util.stream.Collectors.groupingBy(i -> i % 12, java.util.stream.Collectors.counting()))
                    .values()
                    .stream()
                    .mapToLong(Long::longValue)
                    .max()
                    .orElse(0);
            assertThat(top).as("cluster %s", c).isGreaterThanOrEqualTo(Math.round(c.size() * 0.8));
        }
        assertThat(SemanticMixture.of(
                        new ArrayList<>(vectors), tokens, new Params(Reduction.UMAP, Integer.MAX_VALUE, 0, 0.01, 0)))
                .isEqualTo(clustering);
    }

    @Test
    void noClusterExceedsTheTokenCapAndANovelLikeLevelIsClusteredByTheMixturesNotBySplits() {
        // a level like a novel's: 240 units of 250 to 510 tokens, in 30 themes of 8
        List<float[]> vectors = themes(30, 8, 384, 1.0f, 23);
        Random random = new Random(4);
        int[] tokens = IntStream.range(0, vectors.size())
                .map(i -> 250 + random.nextInt(261))
                .toArray();

        Clustering clustering = SemanticMixture.of(vectors, tokens, new Params(Reduction.UMAP, 3500, 0, 0.01, 0));

        assertThat(clustering.members())
                .allSatisfy(c -> assertThat(SemanticMixture.tokensOf(c, tokens)).isLessThanOrEqualTo(3500));
        assertThat(placed(clustering)).isEqualTo(vectors.size());
        var origins = clustering.byOrigin();
        assertThat(origins.values().stream().mapToInt(Integer::intValue).sum())
                .isEqualTo(clustering.clusters().size());
        assertThat(clustering.fromMixture())
                .as("clusters by origin %s", origins)
                .isGreaterThan(4 * origins.get(Origin.SPLIT));
        assertThat(clustering.clusters()).hasSizeGreaterThanOrEqualTo(25);
        assertThat(clustering.localPasses()).isGreaterThanOrEqualTo(clustering.globalComponents() > 1 ? 1 : 0);
        assertThat(SemanticMixture.of(vectors, tokens, new Params(Reduction.UMAP, 3500, 0, 0.01, 0)))
                .isEqualTo(clustering);
    }

    @Test
    void aBlobWithoutStructureIsSplitAlongItsMainAxisIntoPiecesUnderTheCaps() {
        // one tight theme of 40 nodes of 400 tokens: 16,000 tokens no mixture separates
        List<float[]> vectors = themes(1, 40, 64, 0.05f, 5);
        int[] tokens = new int[40];
        Arrays.fill(tokens, 400);

        Clustering clustering = SemanticMixture.of(vectors, tokens, new Params(Reduction.PCA, 3500, 0, 0.01, 0));

        assertThat(clustering.members())
                .allSatisfy(c -> assertThat(SemanticMixture.tokensOf(c, tokens)).isLessThanOrEqualTo(3500));
        assertThat(placed(clustering)).isEqualTo(40);
        assertThat(clustering.clusters()).hasSizeGreaterThanOrEqualTo(5);

        // with a member cap on top, no cluster has more than 3 members
        Clustering capped = SemanticMixture.of(vectors, tokens, new Params(Reduction.UMAP, 3500, 3, 0.01, 0));
        assertThat(capped.members()).allSatisfy(c -> assertThat(c.size()).isLessThanOrEqualTo(3));
        assertThat(placed(capped)).isEqualTo(40);

        // a single node longer than the cap stays a cluster of its own
        int[] long1 = {9000, 100, 100};
        Clustering one =
                SemanticMixture.of(themes(1, 3, 8, 0.1f, 2), long1, new Params(Reduction.UMAP, 3500, 0, 0.01, 0));
        assertThat(placed(one)).isEqualTo(3);
        assertThat(one.members()).contains(List.of(0));
    }

    @Test
    void withPcaTheMixtureStillPutsANodeBetweenTwoThemesInBoth() {
        // two themes of 40 nodes around (-3, 0) and (3, 0), and one node halfway
        Random random = new Random(5);
        List<float[]> vectors = new ArrayList<>();
        for (int i = 0; i < 80; i++) {
            float x = (i % 2 == 0 ? -3 : 3) + (float) random.nextGaussian();
            vectors.add(new float[] {x, (float) random.nextGaussian()});
        }
        vectors.add(new float[] {0, 0});
        int middle = vectors.size() - 1;
        double[][] reduced = SemanticMixture.reduce(vectors, 2);
        List<Integer> all = IntStream.range(0, vectors.size()).boxed().toList();

        List<List<Integer>> clusters = SemanticMixture.soft(reduced, all, 0.01, 0);

        assertThat(clusters).hasSize(2);
        for (List<Integer> c : clusters) {
            assertThat(c).as("the node between the themes is in both clusters").contains(middle);
            long majority = c.stream()
                    .filter(i -> i != middle && i % 2 == c.getFirst() % 2)
                    .count();
            assertThat(majority).as("one theme per cluster").isGreaterThanOrEqualTo(38);
            assertThat(c.size()).as("few nodes in both").isLessThan(47);
        }
        assertThat(SemanticMixture.soft(SemanticMixture.reduce(new ArrayList<>(vectors), 2), all, 0.01, 0))
                .isEqualTo(clusters);
        assertThat(SemanticMixture.of(List.of(new float[] {1, 0}), new int[] {10}, Params.raptor(0.01, 0))
                        .members())
                .containsExactly(List.of(0));
    }

    /** {@code count} points around each of {@code themes} random directions; point i belongs to theme i % themes. */
    static List<float[]> themes(int themes, int count, int dimensions, float noise, long seed) {
        Random random = new Random(seed);
        float[][] centres = new float[themes][dimensions];
        for (float[] c : centres) {
            for (int d = 0; d < dimensions; d++) {
                c[d] = (float) random.nextGaussian();
            }
        }
        List<float[]> out = new ArrayList<>();
        for (int i = 0; i < themes * count; i++) {
            float[] v = new float[dimensions];
            for (int d = 0; d < dimensions; d++) {
                v[d] = centres[i % themes][d] + noise * (float) random.nextGaussian();
            }
            out.add(v);
        }
        return out;
    }

    /** {@code themes} directions, each with {@code subThemes} nearby ones; point i belongs to sub-theme i % (themes * subThemes). */
    private static List<float[]> nested(int themes, int subThemes, int count, long seed) {
        Random random = new Random(seed);
        int dimensions = 128;
        float[][] centres = new float[themes * subThemes][dimensions];
        for (int t = 0; t < themes; t++) {
            float[] theme = new float[dimensions];
            for (int d = 0; d < dimensions; d++) {
                theme[d] = 3 * (float) random.nextGaussian();
            }
            for (int s = 0; s < subThemes; s++) {
                for (int d = 0; d < dimensions; d++) {
                    centres[t * subThemes + s][d] = theme[d] + (float) random.nextGaussian();
                }
            }
        }
        List<float[]> out = new ArrayList<>();
        for (int i = 0; i < centres.length * count; i++) {
            float[] v = new float[dimensions];
            for (int d = 0; d < dimensions; d++) {
                v[d] = centres[i % centres.length][d] + 0.3f * (float) random.nextGaussian();
            }
            out.add(v);
        }
        return out;
    }

    private static int[] ones(int n) {
        int[] out = new int[n];
        Arrays.fill(out, 1);
        return out;
    }

    private static long placed(Clustering clustering) {
        return clustering.members().stream().flatMap(List::stream).distinct().count();
    }

    /** The share of each point's {@code k} nearest points in the layout that are of its own theme. */
    private static double sameThemeAmongNearest(double[][] layout, int themes, int k) {
        int n = layout.length;
        int same = 0;
        for (int i = 0; i < n; i++) {
            final int from = i;
            same += (int) IntStream.range(0, n)
                    .filter(j -> j != from)
                    .boxed()
                    .sorted(Comparator.<Integer>comparingDouble(j -> distance(layout[from], layout[j])))
                    .limit(k)
                    .filter(j -> j % themes == from % themes)
                    .count();
        }
        return same / (double) (n * k);
    }

    private static double meanDistance(double[][] layout, int themes, boolean within) {
        double sum = 0;
        int pairs = 0;
        for (int i = 0; i < layout.length; i++) {
            for (int j = i + 1; j < layout.length; j++) {
                if ((i % themes == j % themes) == within) {
                    sum += distance(layout[i], layout[j]);
                    pairs++;
                }
            }
        }
        return sum / pairs;
    }

    private static double distance(double[] a, double[] b) {
        double sum = 0;
        for (int c = 0; c < a.length; c++) {
            sum += (a[c] - b[c]) * (a[c] - b[c]);
        }
        return Math.sqrt(sum);
    }
}
