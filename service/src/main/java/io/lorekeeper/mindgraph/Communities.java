package io.lorekeeper.mindgraph;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.lorekeeper.strategy.Leiden;

/**
 * Partitions a concept graph into densely connected subgraphs with {@link Leiden} (edge weight =
 * number of edges between two nodes) under a fixed seed, so the same graph always gets the same
 * communities, none larger than the maximum. Nodes without edges belong to no community: a
 * community is a densely connected subgraph (seed 003 follows GraphRAG here), and a report on a
 * handful of unrelated nodes would cost a call and say nothing about structure. Communities are
 * numbered from 1, largest first.
 */
final class Communities {

    static final long SEED = 20_240_503L;

    /** One community: its number and the ids of its nodes, in graph order. */
    record Community(int id, List<String> nodeIds) {}

    private Communities() {}

    static List<Community> detect(ConceptGraph graph, int maxSize) {
        return detect(graph, maxSize, SEED);
    }

    static List<Community> detect(ConceptGraph graph, int maxSize, long seed) {
        List<String> ids = graph.nodes().stream().map(ConceptGraph.Node::id).toList();
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < ids.size(); i++) {
            index.put(ids.get(i), i);
        }
        List<Leiden.Edge> edges = new ArrayList<>();
        boolean[] connected = new boolean[ids.size()];
        for (ConceptGraph.Edge e : graph.edges()) {
            int a = index.get(e.source());
            int b = index.get(e.target());
            edges.add(new Leiden.Edge(a, b, 1.0));
            if (a != b) {
                connected[a] = true;
                connected[b] = true;
            }
        }
        List<Community> communities = new ArrayList<>();
        // Leiden groups edgeless nodes among themselves; those groups are no community here
        for (List<Integer> group : Leiden.communities(ids.size(), edges, maxSize, seed).stream()
                .filter(g -> connected[g.getFirst()])
                .toList()) {
            communities.add(new Community(
                    communities.size() + 1, group.stream().map(ids::get).toList()));
        }
        return communities;
    }
}
