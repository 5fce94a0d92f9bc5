package io.lorekeeper.comorag;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.InflaterInputStream;

/**
 * One document's veridical graph, after HippoRAG 2: entity nodes (normalised names) and passage
 * nodes (the document's units), joined by weighted undirected edges of three kinds: a fact edge
 * between the subject and the object of each extracted triple (weight: how many triples join them),
 * a passage edge between a unit and each entity it mentions (weight 1), and a synonym edge between
 * two entities whose name embeddings have cosine similarity at or above a threshold (weight: the
 * similarity).
 *
 * <p>Nodes {@code 0..entities-1} are entities, then one node per unit in ordinal order. The
 * adjacency is stored compressed-sparse-row (both directions of every edge), so a personalised
 * PageRank is a few dozen sweeps over flat arrays, and the whole graph serialises to one compact
 * byte array that loads in about a millisecond.
 */
final class EntityGraph {

    static final byte FACT = 1;
    static final byte PASSAGE = 2;
    static final byte SYNONYM = 3;

    private final List<String> entities;
    private final int[] units;
    private final int[] offsets;
    private final int[] targets;
    private final float[] weights;
    private final byte[] kinds;
    private final Map<String, Integer> byName;

    private EntityGraph(
            List<String> entities, int[] units, int[] offsets, int[] targets, float[] weights, byte[] kinds) {
        this.entities = entities;
        this.units = units;
        this.offsets = offsets;
        this.targets = targets;
        this.weights = weights;
        this.kinds = kinds;
        this.byName = new HashMap<>();
        for (int i = 0; i < entities.size(); i++) {
            byName.put(entities.get(i), i);
        }
    }

    /** An entity's node name: lower case, whitespace collapsed, surrounding punctuation trimmed. */
    static String normalise(String name) {
        String s = name == null ? "" : name.strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
        return s.replaceAll("^[\\p{Punct}\\s]+|[\\p{Punct}\\s]+$", "");
    }

    /** An undirected edge between two nodes. */
    record Edge(int a, int b, byte kind, float weight) {}

    /** Builds the adjacency from edges; parallel edges of one kind between the same nodes add their weights. */
    static EntityGraph of(List<String> entities, int[] units, List<Edge> edges) {
        int n = entities.size() + units.length;
        Map<Long, float[]> merged = new LinkedHashMap<>();
        Map<Long, Byte> kindOf = new HashMap<>();
        for (Edge e : edges) {
            if (e.a() == e.b()) {
                continue;
            }
            int lo = Math.min(e.a(), e.b());
            int hi = Math.max(e.a(), e.b());
            long key = ((long) lo * n + hi) * 4 + e.kind();
            merged.computeIfAbsent(key, k -> new float[1])[0] += e.weight();
            kindOf.put(key, e.kind());
        }
        int[] degree = new int[n];
        for (long key : merged.keySet()) {
            long pair = key / 4;
            degree[(int) (pair / n)]++;
            degree[(int) (pair % n)]++;
        }
        int[] offsets = new int[n + 1];
        for (int i = 0; i < n; i++) {
            offsets[i + 1] = offsets[i] + degree[i];
        }
        int[] fill = Arrays.copyOf(offsets, n);
        int[] targets = new int[offsets[n]];
        float[] weights = new float[offsets[n]];
        byte[] kinds = new byte[offsets[n]];
        for (Map.Entry<Long, float[]> entry : merged.entrySet()) {
            long pair = entry.getKey() / 4;
            int a = (int) (pair / n);
            int b = (int) (pair % n);
            byte kind = kindOf.get(entry.getKey());
            float w = entry.getValue()[0];
            targets[fill[a]] = b;
            weights[fill[a]] = w;
            kinds[fill[a]++] = kind;
            targets[fill[b]] = a;
            weights[fill[b]] = w;
            kinds[fill[b]++] = kind;
        }
        return new EntityGraph(List.copyOf(entities), units.clone(), offsets, targets, weights, kinds);
    }

    int entityCount() {
        return entities.size();
    }

    int unitCount() {
        return units.length;
    }

    /** Its nodes and edges by kind, as stored beside it and reported in the index event. */
    ComoRagEvent.GraphSize size() {
        return new ComoRagEvent.GraphSize(
                entityCount(),
                unitCount(),
                edges(FACT).size(),
                edges(PASSAGE).size(),
                edges(SYNONYM).size());
    }

    int nodeCount() {
        return entities.size() + units.length;
    }

    List<String> entities() {
        return entities;
    }

    String entity(int node) {
        return entities.get(node);
    }

    /** The node of an entity by (normalised) name, or -1. */
    int entityNode(String name) {
        return byName.getOrDefault(normalise(name), -1);
    }

    /** The node of a unit by ordinal, or -1. */
    int unitNode(int ordinal) {
        int i = Arrays.binarySearch(units, ordinal);
        return i < 0 ? -1 : entities.size() + i;
    }

    int unitOrdinal(int node) {
        return units[node - entities.size()];
    }

    boolean isUnit(int node) {
        return node >= entities.size();
    }

    /** How many units mention an entity (its passage edges); at least 1. */
    int passageCount(int entityNode) {
        int count = 0;
        for (int i = offsets[entityNode]; i < offsets[entityNode + 1]; i++) {
            if (kinds[i] == PASSAGE) {
                count++;
            }
        }
        return Math.max(1, count);
    }

    /** Edges of one kind, each once (lower node first), for tests and statistics. */
    List<Edge> edges(byte kind) {
        List<Edge> out = new ArrayList<>();
        for (int a = 0; a < nodeCount(); a++) {
            for (int i = offsets[a]; i < offsets[a + 1]; i++) {
                if (kinds[i] == kind && a < targets[i]) {
                    out.add(new Edge(a, targets[i], kind, weights[i]));
                }
            }
        }
        return out;
    }

    int edgeCount() {
        return targets.length / 2;
    }

    /**
     * Personalised PageRank by power iteration: {@code p = (1 - d) r + d P^T p}, where {@code P}
     * moves from a node to its neighbours in proportion to the edge weights and {@code r} is the
     * normalised reset vector; the mass of a node without edges returns to {@code r}. Stops when the
     * L1 change falls below {@code tolerance} or after {@code maxIterations}.
     */
    double[] personalisedPageRank(double[] reset, double damping, double tolerance, int maxIterations) {
        int n = nodeCount();
        double total = Arrays.stream(reset).sum();
        double[] r = new double[n];
        if (total <= 0) {
            return r;
        }
        for (int i = 0; i < n; i++) {
            r[i] = reset[i] / total;
        }
        double[] strength = new double[n];
        for (int a = 0; a < n; a++) {
            for (int i = offsets[a]; i < offsets[a + 1]; i++) {
                strength[a] += weights[i];
            }
        }
        double[] p = r.clone();
        double[] next = new double[n];
        for (int iteration = 0; iteration < maxIterations; iteration++) {
            double dangling = 0;
            Arrays.fill(next, 0);
            for (int a = 0; a < n; a++) {
                if (p[a] == 0) {
                    continue;
                }
                if (strength[a] == 0) {
                    dangling += p[a];
                    continue;
                }
                double share = damping * p[a] / strength[a];
                for (int i = offsets[a]; i < offsets[a + 1]; i++) {
                    next[targets[i]] += share * weights[i];
                }
            }
            double back = (1 - damping) + damping * dangling;
            double change = 0;
            for (int i = 0; i < n; i++) {
                next[i] += back * r[i];
                change += Math.abs(next[i] - p[i]);
            }
            double[] swap = p;
            p = next;
            next = swap;
            if (change < tolerance) {
                break;
            }
        }
        return p;
    }

    // ---------------------------------------------------------------- serialisation

    /** A deflated binary form: names, unit ordinals and the CSR arrays. */
    byte[] serialise() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(new DeflaterOutputStream(bytes))) {
            out.writeInt(1);
            out.writeInt(entities.size());
            for (String e : entities) {
                out.writeUTF(e);
            }
            out.writeInt(units.length);
            for (int u : units) {
                out.writeInt(u);
            }
            for (int o : offsets) {
                out.writeInt(o);
            }
            for (int i = 0; i < targets.length; i++) {
                out.writeInt(targets[i]);
                out.writeFloat(weights[i]);
                out.writeByte(kinds[i]);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static EntityGraph deserialise(byte[] data) {
        try (DataInputStream in = new DataInputStream(
                new java.io.BufferedInputStream(new InflaterInputStream(new ByteArrayInputStream(data))))) {
            int version = in.readInt();
            if (version != 1) {
                throw new IllegalStateException("unknown graph format " + version);
            }
            int e = in.readInt();
            List<String> entities = new ArrayList<>(e);
            for (int i = 0; i < e; i++) {
                entities.add(in.readUTF());
            }
            int[] units = new int[in.readInt()];
            for (int i = 0; i < units.length; i++) {
                units[i] = in.readInt();
            }
            int[] offsets = new int[e + units.length + 1];
            for (int i = 0; i < offsets.length; i++) {
                offsets[i] = in.readInt();
            }
            int m = offsets[offsets.length - 1];
            int[] targets = new int[m];
            float[] weights = new float[m];
            byte[] kinds = new byte[m];
            for (int i = 0; i < m; i++) {
                targets[i] = in.readInt();
                weights[i] = in.readFloat();
                kinds[i] = in.readByte();
            }
            return new EntityGraph(entities, units, offsets, targets, weights, kinds);
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }
}
