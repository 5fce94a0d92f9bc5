package io.lorekeeper.mindgraph;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.lorekeeper.text.Span;
import tools.jackson.databind.json.JsonMapper;

/**
 * MindGraph's working memory (seed 003, section 3.1): typed nodes and labelled directed edges, each
 * with a provenance span of the canonical text and the build block that introduced it. Mutable;
 * changed only through {@link GraphEditor}.
 */
final class ConceptGraph {

    static final Set<String> TYPES = Set.of("entity", "event", "claim", "concept", "stat");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** A node; {@code merged} holds the spans of later quotes folded into it by edit_node. */
    record Node(String id, String type, String content, Span span, int chunk, List<Span> merged) {
        Node {
            merged = List.copyOf(merged);
        }

        Node edited(String newContent, Span extra) {
            List<Span> spans = new ArrayList<>(merged);
            if (extra != null && !extra.equals(span) && !spans.contains(extra)) {
                spans.add(extra);
            }
            return new Node(
                    id,
                    type,
                    newContent == null || newContent.isBlank() ? content : newContent.strip(),
                    span,
                    chunk,
                    spans);
        }
    }

    record Edge(String source, String target, String relation, Span span, int chunk) {}

    private final Map<String, Node> nodes = new LinkedHashMap<>();
    private final List<Edge> edges = new ArrayList<>();

    static ConceptGraph empty() {
        return new ConceptGraph();
    }

    static ConceptGraph of(List<Node> nodes, List<Edge> edges) {
        ConceptGraph graph = new ConceptGraph();
        nodes.forEach(n -> graph.nodes.put(n.id(), n));
        graph.edges.addAll(edges);
        return graph;
    }

    ConceptGraph copy() {
        return of(List.copyOf(nodes.values()), edges);
    }

    List<Node> nodes() {
        return List.copyOf(nodes.values());
    }

    List<Edge> edges() {
        return List.copyOf(edges);
    }

    Node node(String id) {
        return nodes.get(id);
    }

    boolean has(String id) {
        return nodes.containsKey(id);
    }

    int nodeCount() {
        return nodes.size();
    }

    int edgeCount() {
        return edges.size();
    }

    boolean isEmpty() {
        return nodes.isEmpty();
    }

    void put(Node node) {
        nodes.put(node.id(), node);
    }

    void add(Edge edge) {
        edges.add(edge);
    }

    /** Removes the node and every edge touching it; returns how many edges went with it. */
    int remove(String id) {
        nodes.remove(id);
        int before = edges.size();
        edges.removeIf(e -> e.source().equals(id) || e.target().equals(id));
        return before - edges.size();
    }

    /** What the builder and the answerer read: ids, types, contents and relations, without offsets. */
    String compactJson() {
        List<Map<String, Object>> ns = new ArrayList<>();
        for (Node n : nodes.values()) {
            ns.add(Map.of("id", n.id(), "type", n.type(), "content", n.content()));
        }
        List<Map<String, Object>> es = new ArrayList<>();
        for (Edge e : edges) {
            es.add(Map.of("source", e.source(), "target", e.target(), "relation", e.relation()));
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("nodes", ns);
        out.put("edges", es);
        return JSON.writeValueAsString(out);
    }

    /** Everything, spans included: the view clients draw and the trace keeps. */
    Map<String, Object> view(String text) {
        List<Map<String, Object>> ns = new ArrayList<>();
        for (Node n : nodes.values()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", n.id());
            m.put("type", n.type());
            m.put("content", n.content());
            m.put("start", n.span().start());
            m.put("end", n.span().end());
            if (text != null && n.span().end() <= text.length()) {
                m.put("quote", n.span().of(text));
            }
            m.put("chunk", n.chunk());
            if (!n.merged().isEmpty()) {
                m.put(
                        "mergedSpans",
                        n.merged().stream()
                                .map(s -> List.of(s.start(), s.end()))
                                .toList());
            }
            ns.add(m);
        }
        List<Map<String, Object>> es = new ArrayList<>();
        for (Edge e : edges) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("source", e.source());
            m.put("target", e.target());
            m.put("relation", e.relation());
            m.put("start", e.span().start());
            m.put("end", e.span().end());
            m.put("chunk", e.chunk());
            es.add(m);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("nodes", ns);
        out.put("edges", es);
        return out;
    }

    /** Identifies this exact graph (contents and spans): the key of its cached community reports. */
    String hash() {
        return sha256(JSON.writeValueAsString(view(null)));
    }

    static String sha256(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
