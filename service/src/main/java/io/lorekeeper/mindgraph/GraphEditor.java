package io.lorekeeper.mindgraph;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import io.lorekeeper.mindgraph.BuildReply.Operation;
import io.lorekeeper.strategy.QuoteResolver;
import io.lorekeeper.text.Blocks;
import io.lorekeeper.text.Span;

/**
 * Applies one block's edits to the graph, in order. An edit is rejected (and counted by reason)
 * when it names an id that does not exist, lacks a required field, has a type outside the closed
 * vocabulary, or (add_node, add_edge) carries a quote that cannot be located in its block; nothing
 * rejected ever gets an invented offset.
 *
 * <p>Two edits are accepted as the paper's build prompt allows them, and counted as tolerated: an
 * edit_node without a quote, or with one that is not in the block (the paper's edit_node has no
 * quote, and a merge realised across blocks, "the pale young gentleman is Herbert", often has no
 * wording in the current block), keeps the node's span and changes its content; an add_node for
 * an id that exists updates that node like an edit_node, instead of losing the update.
 */
final class GraphEditor {

    static final String ADD_NODE = "add_node";
    static final String ADD_EDGE = "add_edge";
    static final String EDIT_NODE = "edit_node";
    static final String DELETE_NODE = "delete_node";

    /** What applying one block's edits did. */
    record Report(
            Map<String, Integer> applied,
            Map<String, Integer> rejected,
            List<Map<String, String>> rejections,
            Map<String, Integer> quoteMethods,
            Map<String, Integer> tolerated) {

        int rejectedTotal() {
            return rejected.values().stream().mapToInt(Integer::intValue).sum();
        }

        int appliedTotal() {
            return applied.values().stream().mapToInt(Integer::intValue).sum();
        }

        /** This report with one more rejection (a whole reply that could not be used counts as one). */
        Report withRejection(String reason, String detail) {
            Map<String, Integer> moreRejected = new java.util.TreeMap<>(rejected);
            moreRejected.merge(reason, 1, Integer::sum);
            List<Map<String, String>> more = new java.util.ArrayList<>(rejections);
            more.add(Map.of("reason", reason, "detail", detail == null ? "" : detail));
            return new Report(applied, moreRejected, more, quoteMethods, tolerated);
        }
    }

    private GraphEditor() {}

    /**
     * @param text  the canonical text
     * @param block the block the builder saw; quotes are looked for inside it only
     */
    static Report apply(ConceptGraph graph, List<Operation> operations, String text, Blocks.Block block) {
        Map<String, Integer> applied = new TreeMap<>();
        Map<String, Integer> rejected = new TreeMap<>();
        Map<String, Integer> methods = new TreeMap<>();
        Map<String, Integer> tolerated = new TreeMap<>();
        List<Map<String, String>> rejections = new ArrayList<>();
        String passage = text.substring(block.start(), block.end());
        for (Operation operation : operations == null ? List.<Operation>of() : operations) {
            String reason = applyOne(graph, operation, passage, block, methods, tolerated);
            String op = operation == null || operation.op() == null
                    ? "?"
                    : operation.op().strip().toLowerCase(Locale.ROOT);
            if (reason == null) {
                applied.merge(op, 1, Integer::sum);
            } else {
                rejected.merge(reason, 1, Integer::sum);
                Map<String, String> why = new LinkedHashMap<>();
                why.put("op", op);
                why.put(
                        "id",
                        operation == null ? "" : String.valueOf(firstNonNull(operation.id(), operation.source())));
                why.put("reason", reason);
                rejections.add(why);
            }
        }
        return new Report(applied, rejected, rejections, methods, tolerated);
    }

    /** Applies one edit; returns null, or why it was rejected. */
    private static String applyOne(
            ConceptGraph graph,
            Operation o,
            String passage,
            Blocks.Block block,
            Map<String, Integer> methods,
            Map<String, Integer> tolerated) {
        if (o == null || o.op() == null) {
            return "unknown-op";
        }
        String op = o.op().strip().toLowerCase(Locale.ROOT);
        switch (op) {
            case ADD_NODE -> {
                String id = clean(o.id());
                if (id == null || blank(o.content())) {
                    return "missing-field";
                }
                String type = o.type() == null ? "" : o.type().strip().toLowerCase(Locale.ROOT);
                if (!ConceptGraph.TYPES.contains(type)) {
                    return "bad-type";
                }
                if (graph.has(id)) {
                    tolerated.merge("add_node-existing-id", 1, Integer::sum);
                    update(graph, id, o.content(), o.src(), passage, block, methods, tolerated);
                    return null;
                }
                Span span = locate(o.src(), passage, block, methods);
                if (span == null) {
                    return "quote-not-found";
                }
                graph.put(new ConceptGraph.Node(id, type, o.content().strip(), span, block.index(), List.of()));
                return null;
            }
            case ADD_EDGE -> {
                String source = clean(o.source());
                String target = clean(o.target());
                if (source == null || target == null || blank(o.relation())) {
                    return "missing-field";
                }
                if (!graph.has(source) || !graph.has(target)) {
                    return "unknown-id";
                }
                Span span = locate(o.src(), passage, block, methods);
                if (span == null) {
                    return "quote-not-found";
                }
                graph.add(new ConceptGraph.Edge(source, target, o.relation().strip(), span, block.index()));
                return null;
            }
            case EDIT_NODE -> {
                String id = clean(o.id());
                if (id == null) {
                    return "missing-field";
                }
                if (!graph.has(id)) {
                    return "unknown-id";
                }
                update(graph, id, o.content(), o.src(), passage, block, methods, tolerated);
                return null;
            }
            case DELETE_NODE -> {
                String id = clean(o.id());
                if (id == null) {
                    return "missing-field";
                }
                if (!graph.has(id)) {
                    return "unknown-id";
                }
                graph.remove(id);
                return null;
            }
            default -> {
                return "unknown-op";
            }
        }
    }

    /** New content for an existing node; a located quote joins its spans, a missing one leaves them as they were. */
    private static void update(
            ConceptGraph graph,
            String id,
            String content,
            String quote,
            String passage,
            Blocks.Block block,
            Map<String, Integer> methods,
            Map<String, Integer> tolerated) {
        Span span = locate(quote, passage, block, methods);
        if (span == null) {
            tolerated.merge(blank(quote) ? "edit-without-quote" : "edit-quote-not-found", 1, Integer::sum);
        }
        graph.put(graph.node(id).edited(content, span));
    }

    private static Span locate(String quote, String passage, Blocks.Block block, Map<String, Integer> methods) {
        return QuoteResolver.resolve(quote, passage, block.start())
                .map(r -> {
                    methods.merge(r.method().name().toLowerCase(Locale.ROOT), 1, Integer::sum);
                    return r.span();
                })
                .orElse(null);
    }

    private static String clean(String id) {
        return id == null || id.isBlank() ? null : id.strip();
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    private static String firstNonNull(String a, String b) {
        return a != null ? a : b == null ? "" : b;
    }
}
