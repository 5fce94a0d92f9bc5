package io.lorekeeper.strategy;

import java.util.ArrayList;
import java.util.Arrays;
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
 * Leiden community detection (modularity, undirected) over nodes {@code 0..n-1} under a fixed seed,
 * so the same graph always gets the same communities. A community larger than the maximum is
 * clustered again on its own subnetwork, and cut in node order when Leiden will not split it. Nodes
 * without edges are grouped in node order. Shared by MindGraph (concept-graph communities) and
 * ComoRAG (clusters of its semantic layer).
 */
public final class Leiden {

    private static final int ITERATIONS = 10;

    /** An undirected weighted edge; parallel edges add up, self-loops are ignored. */
    public record Edge(int a, int b, double weight) {}

    private Leiden() {}

    /** Communities as lists of node indices in ascending order; largest first, ties by their first node. */
    public static List<List<Integer>> communities(int n, List<Edge> edges, int maxSize, long seed) {
        if (maxSize < 1) {
            throw new IllegalArgumentException("maxSize must be positive");
        }
        Map<Long, Double> weights = new LinkedHashMap<>();
        boolean[] connected = new boolean[n];
        for (Edge e : edges) {
            if (e.a() == e.b() || e.weight() <= 0) {
                continue;
            }
            connected[e.a()] = true;
            connected[e.b()] = true;
            long key = (long) Math.min(e.a(), e.b()) * n + Math.max(e.a(), e.b());
            weights.merge(key, e.weight(), Double::sum);
        }
        List<List<Integer>> groups = new ArrayList<>();
        List<Integer> linked = new ArrayList<>();
        List<Integer> isolated = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            (connected[i] ? linked : isolated).add(i);
        }
        if (!linked.isEmpty()) {
            groups.addAll(cluster(linked, weights, n, maxSize, seed));
        }
        groups.addAll(cut(isolated, maxSize));
        groups.sort(Comparator.<List<Integer>>comparingInt(g -> -g.size()).thenComparingInt(g -> g.getFirst()));
        return groups;
    }

    /** Leiden over the nodes {@code members} (global indices), recursing into clusters that are too large. */
    private static List<List<Integer>> cluster(
            List<Integer> members, Map<Long, Double> weights, int n, int maxSize, long seed) {
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
        LargeIntArray[] edges = {
            new LargeIntArray(from.stream().mapToInt(Integer::intValue).toArray()),
            new LargeIntArray(to.stream().mapToInt(Integer::intValue).toArray())
        };
        Network network = new Network(
                members.size(),
                true,
                edges,
                new LargeDoubleArray(w.stream().mapToDouble(Double::doubleValue).toArray()),
                false,
                true);
        double resolution = 1.0 / (2 * network.getTotalEdgeWeight() + network.getTotalEdgeWeightSelfLinks());
        LeidenAlgorithm leiden =
                new LeidenAlgorithm(resolution, ITERATIONS, LeidenAlgorithm.DEFAULT_RANDOMNESS, new Random(seed));
        Clustering clustering = leiden.findClustering(network);
        clustering.orderClustersByNNodes();
        int[][] perCluster = clustering.getNodesPerCluster();
        if (perCluster.length <= 1) {
            return cut(members, maxSize);
        }
        List<List<Integer>> out = new ArrayList<>();
        for (int[] cluster : perCluster) {
            if (cluster.length == 0) {
                continue;
            }
            List<Integer> global = new ArrayList<>();
            Arrays.stream(cluster).sorted().forEach(i -> global.add(members.get(i)));
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
