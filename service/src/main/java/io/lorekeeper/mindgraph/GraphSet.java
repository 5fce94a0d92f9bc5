package io.lorekeeper.mindgraph;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.lorekeeper.text.Span;

/**
 * The graphs of a question's documents seen as one: node ids are qualified with {@code d<n>/}
 * when there is more than one document, so the answerer can name any node unambiguously.
 */
final class GraphSet {

    record Part(UUID documentId, String text, GraphBuilder.Built built) {}

    /** A node of one document's graph, under its qualified id. */
    record Located(String qualifiedId, Part part, ConceptGraph.Node node) {}

    private final List<Part> parts;
    private final Map<String, Located> byId = new LinkedHashMap<>();
    private final ConceptGraph union;

    GraphSet(List<Part> parts) {
        this.parts = List.copyOf(parts);
        List<ConceptGraph.Node> nodes = new ArrayList<>();
        List<ConceptGraph.Edge> edges = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            String prefix = parts.size() == 1 ? "" : "d" + (i + 1) + "/";
            Part part = parts.get(i);
            for (ConceptGraph.Node n : part.built().graph().nodes()) {
                String id = prefix + n.id();
                byId.put(id, new Located(id, part, n));
                nodes.add(new ConceptGraph.Node(id, n.type(), n.content(), n.span(), n.chunk(), n.merged()));
            }
            for (ConceptGraph.Edge e : part.built().graph().edges()) {
                edges.add(new ConceptGraph.Edge(
                        prefix + e.source(), prefix + e.target(), e.relation(), e.span(), e.chunk()));
            }
        }
        this.union = ConceptGraph.of(nodes, edges);
    }

    List<Part> parts() {
        return parts;
    }

    ConceptGraph union() {
        return union;
    }

    Located find(String qualifiedId) {
        return qualifiedId == null ? null : byId.get(qualifiedId.strip());
    }

    int blocks() {
        return parts.stream().mapToInt(p -> p.built().blocks()).sum();
    }

    /** About {@code chars} characters of source centred on the node's span (the whole span when longer). */
    static Span window(String text, Span span, int chars) {
        int centre = (span.start() + span.end()) / 2;
        int start = Math.max(0, Math.min(span.start(), centre - chars / 2));
        int end = Math.min(text.length(), Math.max(span.end(), start + chars));
        start = Math.max(0, Math.min(start, end - chars));
        return new Span(start, end);
    }
}
