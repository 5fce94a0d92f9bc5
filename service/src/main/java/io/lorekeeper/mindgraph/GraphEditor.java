package io.lorekeeper.mindgraph;

import java.util.ArrayList;
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
            List<MindGraphEvent.Rejection> rejections,
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
            List<MindGraphEvent.Rejection> more = new java.util.ArrayList<>(rejections);
            more.add(new MindGraphEvent.Rejection(null, null, reason, detail == null ? "" : detail));
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
        List<MindGraphEvent.Rejection> rejections = new ArrayList<>();
        Edits edits = new Edits(graph, text.substring(block.start(), block.end()), block);
        for (Operation operation : operations == null ? List.<Operation>of() : operations) {
            String reason = edits.applyOne(operation);
            String op = operation == null || operation.op() == null
                    ? "?"
                    : operation.op().strip().toLowerCase(Locale.ROOT);
            if (reason == null) {
                applied.merge(op, 1, Integer::sum);
            } else {
                rejected.merge(reason, 1, Integer::sum);
                String id = operation == null ? "" : String.valueOf(firstNonNull(operation.id(), operation.source()));
                rejections.add(new MindGraphEvent.Rejection(op, id, reason, null));
            }
        }
        return new Report(applied, rejected, rejections, edits.methods, edits.tolerated);
    }

    /** One block's edits being applied to the graph, with how their quotes were found and what was tolerated. */
    private static final class Edits {

        private final ConceptGraph graph;
        private final String passage;
        private final Blocks.Block block;
        final Map<String, Integer> methods = new TreeMap<>();
        final Map<String, Integer> tolerated = new TreeMap<>();

        Edits(ConceptGraph graph, String passage, Blocks.Block block) {
            this.graph = graph;
            this.passage = passage;
            this.block = block;
        }

        /** Applies one edit; returns null, or why it was rejected. */
        String applyOne(Operation o) {
            if (o == null || o.op() == null) {
                return "unknown-op";
            }
            return switch (o.op().strip().toLowerCase(Locale.ROOT)) {
                case ADD_NODE -> addNode(o);
                case ADD_EDGE -> addEdge(o);
                case EDIT_NODE -> editNode(o);
                case DELETE_NODE -> deleteNode(o);
                default -> "unknown-op";
            };
        }

        private String addNode(Operation o) {
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
                update(id, o.content(), o.src());
                return null;
            }
            Span span = locate(o.src());
            if (span == null) {
                return "quote-not-found";
            }
            graph.put(new ConceptGraph.Node(id, type, o.content().strip(), span, block.index(), List.of()));
            return null;
        }

        private String addEdge(Operation o) {
            String source = clean(o.source());
            String target = clean(o.target());
            if (source == null || target == null || blank(o.relation())) {
                return "missing-field";
            }
            if (!graph.has(source) || !graph.has(target)) {
                return "unknown-id";
            }
            Span span = locate(o.src());
            if (span == null) {
                return "quote-not-found";
            }
            graph.add(new ConceptGraph.Edge(source, target, o.relation().strip(), span, block.index()));
            return null;
        }

        private String editNode(Operation o) {
            return onExistingNode(o, id -> update(id, o.content(), o.src()));
        }

        private String deleteNode(Operation o) {
            return onExistingNode(o, graph::remove);
        }

        /** Applies {@code change} to the node the edit names; the rejection reason when it names none or an unknown one. */
        private String onExistingNode(Operation o, java.util.function.Consumer<String> change) {
            String id = clean(o.id());
            if (id == null) {
                return "missing-field";
            }
            if (!graph.has(id)) {
                return "unknown-id";
            }
            change.accept(id);
            return null;
        }

        /** New content for an existing node; a located quote joins its spans, a missing one leaves them as they were. */
        private void update(String id, String content, String quote) {
            Span span = locate(quote);
            if (span == null) {
                tolerated.merge(blank(quote) ? "edit-without-quote" : "edit-quote-not-found", 1, Integer::sum);
            }
            graph.put(graph.node(id).edited(content, span));
        }

        private Span locate(String quote) {
            return QuoteResolver.resolve(quote, passage, block.start())
                    .map(r -> {
                        methods.merge(r.method().name().toLowerCase(Locale.ROOT), 1, Integer::sum);
                        return r.span();
                    })
                    .orElse(null);
        }
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
