package io.lorekeeper.reasoning.mindgraph;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import nl.cwts.networkanalysis.Clustering;
import nl.cwts.networkanalysis.LeidenAlgorithm;
import nl.cwts.networkanalysis.Network;
import nl.cwts.util.LargeDoubleArray;
import nl.cwts.util.LargeIntArray;

/**
 * Partitions a graph into densely connected subgraphs with Leiden (modularity, undirected, edge
 * weight = number of edges between two nodes) under a fixed seed, so the same graph always gets
 * the same communities. A community larger than the maximum is clustered again on its own
 * subnetwork, and cut in node order when Leiden will not split it. Nodes without edges belong to no
 * community: a community is a densely connected subgraph (seed 003 follows GraphRAG here), and a
 * report on a handful of unrelated nodes would cost a call and say nothing about structure.
 * Communities are numbered from 1, largest first.
 */
final class Communities {

    static final long SEED = 20_240_503L;
    private static final int ITERATIONS = 10;

    /** One community: its number and the ids of its nodes, in graph order. */
    record Community(int id, List<String> nodeIds) {
    }

    private Communities() {
    }

    static List<Community> detect(ConceptGraph graph, int maxSize) {
        return detect(graph, maxSize, SEED);
    }

    static List<Community> detect(ConceptGraph graph, int maxSize, long seed) {
        List<String> ids = graph.nodes().stream().map(ConceptGraph.Node::id).toList();
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < ids.size(); i++) {
            index.put(ids.get(i), i);
        }
        Map<Long, Double> weights = new LinkedHashMap<>();
        boolean[] connected = new boolean[ids.size()];
        for (ConceptGraph.Edge e : graph.edges()) {
            int a = index.get(e.source());
            int b = index.get(e.target());
            if (a == b) {
                continue;
            }
            connected[a] = true;
            connected[b] = true;
            long key = (long) Math.min(a, b) * ids.size() + Math.max(a, b);
            weights.merge(key, 1.0, Double::sum);
        }
        List<List<Integer>> groups = new ArrayList<>();
        List<Integer> linked = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            if (connected[i]) {
                linked.add(i);
            }
        }
        if (!linked.isEmpty()) {
            groups.addAll(cluster(linked, weights, ids.size(), maxSize, seed));
        }
        groups.sort(Comparator.<List<Integer>>comparingInt(g -> -g.size()).thenComparingInt(g -> g.getFirst()));
        List<Community> communities = new ArrayList<>();
        for (List<Integer> g : groups) {
            communities.add(new Community(communities.size() + 1, g.stream().map(ids::get).toList()));
        }
        return communities;
    }

    /** Leiden over the nodes {@code members} (global indices), recursing into clusters that are too large. */
    private static List<List<Integer>> cluster(List<Integer> members, Map<Long, Double> weights, int n, int maxSize, long seed) {
        if (members.size() <= maxSize) {
            return List.of(members);
        }
        Map<Integer, Integer> local = new HashMap<>();
        for (int i = 0; i < members.size(); i++) {
            local.put(members.get(i), i);
        }
        List<Integer> from = new ArrayList<>();
        List<Integer> to = new ArrayList<>();
        List<Double> w = new ArrayList<>();
        weights.forEach((key, weight) -> {
            Integer a = local.get((int) (key / n));
            Integer b = local.get((int) (key % n));
            if (a != null && b != null) {
                from.add(a);
                to.add(b);
                w.add(weight);
            }
        });
        if (from.isEmpty()) {
            return cut(members, maxSize);
        }
        LargeIntArray[] edges = {new LargeIntArray(from.stream().mapToInt(Integer::intValue).toArray()),
                new LargeIntArray(to.stream().mapToInt(Integer::intValue).toArray())};
        Network network = new Network(members.size(), true, edges,
                new LargeDoubleArray(w.stream().mapToDouble(Double::doubleValue).toArray()), false, true);
        double resolution = 1.0 / (2 * network.getTotalEdgeWeight() + network.getTotalEdgeWeightSelfLinks());
        LeidenAlgorithm leiden = new LeidenAlgorithm(resolution, ITERATIONS, LeidenAlgorithm.DEFAULT_RANDOMNESS, new Random(seed));
        Clustering clustering = leiden.findClustering(network);
        clustering.orderClustersByNNodes();
        int[][] perCluster = clustering.getNodesPerCluster();
        List<List<Integer>> out = new ArrayList<>();
        if (perCluster.length <= 1) {
            return cut(members, maxSize);
        }
        for (int[] cluster : perCluster) {
            if (cluster.length == 0) {
                continue;
            }
            List<Integer> global = new ArrayList<>();
            java.util.Arrays.stream(cluster).sorted().forEach(i -> global.add(members.get(i)));
            out.addAll(cluster(global, weights, n, maxSize, seed));
        }
        return out;
    }

    private static List<List<Integer>> cut(List<Integer> members, int maxSize) {
        List<List<Integer>> out = new ArrayList<>();
        for (int i = 0; i < members.size(); i += maxSize) {
            out.add(List.copyOf(members.subList(i, Math.min(members.size(), i + maxSize))));
        }
        return out;
    }
}
