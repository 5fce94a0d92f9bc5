package io.lorekeeper.comorag;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.IntStream;

import io.lorekeeper.comorag.ComoRagStore.Fact;

/**
 * Builds a document's {@link EntityGraph} from the output of the triples stage: every subject and
 * object of a triple and every entity a unit lists becomes an entity node (by normalised name); a
 * triple adds a fact edge between its subject and object and passage edges from its unit to both;
 * a listed entity adds a passage edge from its unit; entity names are embedded and every pair with
 * cosine similarity at or above the threshold (HippoRAG 2's 0.8) gets a synonym edge.
 */
final class GraphBuilder {

    /** HippoRAG 2's synonym threshold (shared/specs/comorag.md). */
    static final double SYNONYM_SIMILARITY = 0.8;

    private GraphBuilder() {}

    /** A unit and the entities its triples reply listed. */
    record UnitEntities(int ordinal, List<String> entities) {}

    /** The graph, and each entity node's (normalised) name embedding, in node order. */
    record Built(EntityGraph graph, List<float[]> vectors) {}

    static Built build(
            List<UnitEntities> units,
            List<Fact> facts,
            Function<List<String>, List<float[]>> embed,
            double synonymSimilarity) {
        Map<String, Integer> nodes = new LinkedHashMap<>();
        for (Fact f : facts) {
            node(nodes, f.subject());
            node(nodes, f.object());
        }
        for (UnitEntities u : units) {
            u.entities().forEach(e -> node(nodes, e));
        }
        nodes.remove("");
        List<String> names = new ArrayList<>(nodes.keySet());
        for (int i = 0; i < names.size(); i++) {
            nodes.put(names.get(i), i);
        }
        int[] ordinals = units.stream()
                .mapToInt(UnitEntities::ordinal)
                .sorted()
                .distinct()
                .toArray();
        int e = names.size();
        Map<Integer, Integer> unitNode = new LinkedHashMap<>();
        for (int i = 0; i < ordinals.length; i++) {
            unitNode.put(ordinals[i], e + i);
        }
        List<EntityGraph.Edge> edges = new ArrayList<>();
        java.util.Set<Long> mentions = new java.util.HashSet<>();
        for (Fact f : facts) {
            Integer s = nodes.get(EntityGraph.normalise(f.subject()));
            Integer o = nodes.get(EntityGraph.normalise(f.object()));
            Integer u = unitNode.get(f.unit().ordinal());
            if (s != null && o != null) {
                edges.add(new EntityGraph.Edge(s, o, EntityGraph.FACT, 1f));
            }
            for (Integer x : new Integer[] {s, o}) {
                if (x != null && u != null && mentions.add((long) x * (e + ordinals.length) + u)) {
                    edges.add(new EntityGraph.Edge(x, u, EntityGraph.PASSAGE, 1f));
                }
            }
        }
        for (UnitEntities unit : units) {
            int u = unitNode.get(unit.ordinal());
            for (String name : unit.entities()) {
                Integer x = nodes.get(EntityGraph.normalise(name));
                if (x != null && mentions.add((long) x * (e + ordinals.length) + u)) {
                    edges.add(new EntityGraph.Edge(x, u, EntityGraph.PASSAGE, 1f));
                }
            }
        }
        List<float[]> vectors = names.isEmpty() ? List.of() : embed.apply(names);
        edges.addAll(synonyms(vectors, synonymSimilarity));
        return new Built(EntityGraph.of(names, ordinals, edges), vectors);
    }

    /** Synonym edges between every pair of vectors at or above the similarity (all pairs, in parallel). */
    static List<EntityGraph.Edge> synonyms(List<float[]> vectors, double threshold) {
        float[][] unit = vectors.stream().map(SemanticClusters::normalised).toArray(float[][]::new);
        return IntStream.range(0, unit.length)
                .parallel()
                .mapToObj(i -> {
                    List<EntityGraph.Edge> found = new ArrayList<>();
                    for (int j = i + 1; j < unit.length; j++) {
                        double s = SemanticClusters.dot(unit[i], unit[j]);
                        if (s >= threshold) {
                            found.add(new EntityGraph.Edge(i, j, EntityGraph.SYNONYM, (float) s));
                        }
                    }
                    return found;
                })
                .flatMap(List::stream)
                .toList();
    }

    private static void node(Map<String, Integer> nodes, String name) {
        nodes.putIfAbsent(EntityGraph.normalise(name), nodes.size());
    }
}
