package io.lorekeeper.reasoning.mindgraph;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import org.springframework.stereotype.Component;

import io.lorekeeper.document.Documents;
import io.lorekeeper.llm.LlmSession;
import io.lorekeeper.llm.Role;
import io.lorekeeper.llm.UnusableReplyException;
import io.lorekeeper.reasoning.Cancellation;
import io.lorekeeper.reasoning.Trace;
import io.lorekeeper.text.Blocks;

/**
 * The build stage (seed 003, section 3.2): streams over the document block by block; for each
 * block the builder sees the question (none for the shared graph), the graph so far and the block,
 * and returns edits that are applied in order. The graph is stored after every block, so a build
 * that stops (budget, crash) resumes at the next block, and a finished graph for the same
 * (document, question, block size) is reused without a single call. A question-aware build starts
 * from the document's shared graph when the {@code graph} stage has built one.
 */
@Component
class GraphBuilder {

    static final String TEMPLATE = "mindgraph/build";

    private final GraphStore store;
    private final Documents documents;

    GraphBuilder(GraphStore store, Documents documents) {
        this.store = store;
        this.documents = documents;
    }

    /** Sees progress in blocks. */
    @FunctionalInterface
    interface Progress {
        void blocks(int done, int total);

        Progress NONE = (done, total) -> { };
    }

    /** A graph ready to answer from, and how it came about. */
    record Built(long graphId, ConceptGraph graph, int blocks, Map<String, Integer> rejected, boolean reused, Long seededFrom,
            int calls) {
    }

    /** The document's graph for {@code question} ({@code null}: the shared, question-agnostic one), built or resumed as needed. */
    Built obtain(LlmSession llm, UUID documentId, String question, int chunkTokens, Cancellation cancellation, Trace trace,
            Progress progress) {
        String text = documents.text(documentId);
        String scope = GraphStore.scopeOf(question);
        GraphStore.GraphRow row = store.find(documentId, scope, chunkTokens).orElse(null);
        ConceptGraph graph;
        if (row == null) {
            GraphStore.GraphRow seed = question == null ? null
                    : store.shared(documentId).filter(s -> s.status().equals(GraphStore.READY)).orElse(null);
            row = store.create(documentId, scope, question, chunkTokens, seed == null ? null : seed.id());
            graph = seed == null ? ConceptGraph.empty() : store.load(seed.id());
            if (seed != null) {
                trace.record("graph.seed", Map.of("documentId", documentId, "sharedGraph", seed.id(), "nodes", graph.nodeCount(),
                        "edges", graph.edgeCount()));
            }
        } else {
            graph = store.load(row.id());
        }
        List<Blocks.Block> remaining = Blocks.split(text, row.builtTo(), row.blocksDone(), chunkTokens);
        boolean reused = row.blocksDone() > 0 && remaining.isEmpty();
        Map<String, Integer> rejected = new TreeMap<>(row.rejected());
        int total = row.blocksDone() + remaining.size();
        progress.blocks(row.blocksDone(), total);
        int calls = 0;
        for (Blocks.Block block : remaining) {
            cancellation.throwIfCancelled();
            GraphEditor.Report report = step(llm, graph, text, block, total, question);
            calls++;
            report.rejected().forEach((reason, n) -> rejected.merge(reason, n, Integer::sum));
            boolean last = block.index() == total - 1;
            store.save(row.id(), graph, block.index() + 1, block.end(), rejected, last ? GraphStore.READY : GraphStore.BUILDING);
            Map<String, Object> event = new LinkedHashMap<>();
            event.put("documentId", documentId);
            event.put("block", block.index() + 1);
            event.put("blocks", total);
            event.put("span", List.of(block.start(), block.end()));
            event.put("applied", report.applied());
            event.put("rejected", report.rejected());
            event.put("rejections", report.rejections());
            event.put("quotesFound", report.quoteMethods());
            event.put("nodes", graph.nodeCount());
            event.put("edges", graph.edgeCount());
            trace.record("graph.build", event);
            progress.blocks(block.index() + 1, total);
        }
        if (remaining.isEmpty() && !row.status().equals(GraphStore.READY)) {
            store.save(row.id(), graph, row.blocksDone(), row.builtTo(), rejected, GraphStore.READY);
        }
        return new Built(row.id(), graph, total, rejected, reused, row.seededFrom(), calls);
    }

    /** One builder call over one block, its edits applied to {@code graph}. */
    static GraphEditor.Report step(LlmSession llm, ConceptGraph graph, String text, Blocks.Block block, int total, String question) {
        Map<String, Object> vars = new LinkedHashMap<>();
        vars.put("question", question == null ? NO_QUESTION : question);
        vars.put("focus", question == null ? SHARED_FOCUS : QUESTION_FOCUS);
        vars.put("graph", graph.isEmpty() ? "(empty)" : graph.compactJson());
        vars.put("blockNumber", block.index() + 1);
        vars.put("blocks", total);
        vars.put("block", text.substring(block.start(), block.end()));
        BuildReply reply;
        try {
            reply = llm.structured(Role.BUILDER, TEMPLATE, vars, BuildReply.class);
        } catch (UnusableReplyException unusable) {
            // a block whose reply had nothing usable adds nothing; the graph goes on with the next block
            return GraphEditor.apply(graph, List.of(), text, block).withRejection("unusable-reply", unusable.getMessage());
        }
        return GraphEditor.apply(graph, reply.operations(), text, block);
    }

    private static final String NO_QUESTION = "(none yet: this graph will serve many later questions about the text)";
    private static final String QUESTION_FOCUS = "- Prefer what bears on the question; leave out what cannot matter to it.";
    private static final String SHARED_FOCUS = "- There is no single question: keep the main people, places, events, claims, "
            + "themes and figures, the things readers are most likely to ask about.";
}
