package io.lorekeeper.mindgraph;

import java.util.ArrayList;
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
import io.lorekeeper.platform.Failures;
import io.lorekeeper.strategy.Cancellation;
import io.lorekeeper.strategy.StepEvent;
import io.lorekeeper.strategy.Trace;
import io.lorekeeper.text.Blocks;

/**
 * The build stage (seed 003, section 3.2): streams over the document block by block; for each
 * block the builder sees the question (none for the shared graph), the graph so far and the block,
 * and returns edits that are applied in order. The graph is stored after every block, so a build
 * that stops (budget, crash) resumes at the next block, and a finished graph for the same
 * (document, question, block size, start) is reused without a single call.
 *
 * <p>A question-aware build starts from the empty graph, as the paper's G0 does: conditioning on
 * the question from the first block is what keeps the graph small. Starting from the document's
 * shared graph instead is an option ({@link Start#SHARED}); such a graph is stored apart from the
 * empty-start one.
 */
@Component
class GraphBuilder {

    static final String TEMPLATE = "mindgraph/build";
    /** Edits the builder may return for one block: its reply stays well inside the builder's output limit. */
    static final int MAX_OPERATIONS = 40;
    /** Marks the scope of a graph that started from the shared graph, so it never passes for an empty-start one. */
    private static final String SEEDED_SCOPE = "+shared";

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

        Progress NONE = (done, total) -> {};
    }

    /** Where a question-aware build starts. */
    enum Start {
        /** The empty graph (the paper's G0). */
        EMPTY,
        /** The document's question-agnostic graph, when the {@code graph} stage has built one. */
        SHARED
    }

    /**
     * A graph ready to answer from, and how it came about.
     *
     * @param partial the build stopped before the last block (budget), and this is the graph so far
     */
    record Built(
            long graphId,
            ConceptGraph graph,
            int blocks,
            Map<String, Integer> rejected,
            boolean reused,
            Long seededFrom,
            int calls,
            boolean partial) {}

    /** Hears of a block left out of a build because the builder's reply for it stayed unusable. */
    @FunctionalInterface
    interface Gaps {
        void unusable(Blocks.Block block, String reason);
    }

    /**
     * The document's shared, question-agnostic graph, built or resumed as needed (the {@code graph}
     * stage), telling {@code gaps} of each block whose builder reply stayed unusable
     * after the gateway's repair. Such a block adds nothing and the build goes on with the next one;
     * it is remembered with the graph and tried again (once, before the blocks not built yet) by the
     * next call, whose edits then apply to the graph as it stands.
     */
    Built obtainShared(LlmSession llm, UUID documentId, int chunkTokens, Progress progress, Gaps gaps) {
        return obtain(
                llm,
                documentId,
                null,
                Start.EMPTY,
                chunkTokens,
                AnswerReserve.NONE,
                Cancellation.NEVER,
                Trace.NONE,
                progress,
                gaps);
    }

    /**
     * The document's graph for {@code question} ({@code null}: the shared, question-agnostic one), built or
     * resumed as needed. Before each block the build checks that the question's budget still leaves
     * {@code reserve} for answering; when it does not, it stops and returns the graph so far as partial.
     * With {@code gaps} (the shared build), a block whose reply stayed unusable is left out and
     * remembered, as {@link #obtainShared} says; without ({@code null}), such a reply fails the build.
     */
    Built obtain(
            LlmSession llm,
            UUID documentId,
            String question,
            Start start,
            int chunkTokens,
            AnswerReserve reserve,
            Cancellation cancellation,
            Trace trace,
            Progress progress,
            Gaps gaps) {
        String text = documents.text(documentId);
        Opened opened = open(documentId, question, start, chunkTokens, trace);
        GraphStore.GraphRow row = opened.row();
        List<Blocks.Block> remaining = Blocks.split(text, row.builtTo(), row.blocksDone(), chunkTokens);
        Build build = new Build(
                llm, documentId, question, text, row, opened.graph(), row.blocksDone() + remaining.size(), trace, gaps);
        progress.blocks(row.blocksDone(), build.total);
        build.retrySkipped();
        for (Blocks.Block block : remaining) {
            String stop = stopReason(llm, reserve, cancellation);
            if (stop != null) {
                recordStop(trace, llm, documentId, build.built, build.total, stop);
                return build.result(build.built, false, true);
            }
            build.block(block);
            progress.blocks(block.index() + 1, build.total);
        }
        if (remaining.isEmpty() && !row.status().equals(GraphStore.READY)) {
            store.save(row.id(), build.graph, row.blocksDone(), row.builtTo(), build.rejected, GraphStore.READY);
        }
        return build.result(build.total, row.blocksDone() > 0 && remaining.isEmpty(), false);
    }

    /**
     * One run of a build over a stored graph: the blocks it builds, each stored as soon as it is
     * applied, with the rejections counted so far and the calls made.
     */
    private final class Build {

        private final LlmSession llm;
        private final UUID documentId;
        private final String question;
        private final String text;
        private final GraphStore.GraphRow row;
        private final Trace trace;
        private final Gaps gaps;
        final ConceptGraph graph;
        final int total;
        final Map<String, Integer> rejected;
        private final List<Blocks.Block> skipped;
        private int calls;
        int built;

        Build(
                LlmSession llm,
                UUID documentId,
                String question,
                String text,
                GraphStore.GraphRow row,
                ConceptGraph graph,
                int total,
                Trace trace,
                Gaps gaps) {
            this.llm = llm;
            this.documentId = documentId;
            this.question = question;
            this.text = text;
            this.row = row;
            this.graph = graph;
            this.total = total;
            this.trace = trace;
            this.gaps = gaps;
            this.rejected = new TreeMap<>(row.rejected());
            this.skipped = gaps == null ? new ArrayList<>() : new ArrayList<>(store.skippedBlocks(row.id()));
            this.built = row.blocksDone();
        }

        /** Blocks an earlier run left out, tried again once; the edits apply to the graph as it stands. */
        void retrySkipped() {
            for (Blocks.Block block : List.copyOf(skipped)) {
                GraphEditor.Report report;
                try {
                    report = edit(llm, graph, text, block, total, question);
                } catch (UnusableReplyException unusable) {
                    calls++;
                    gaps.unusable(block, Failures.describe(unusable));
                    continue;
                }
                calls++;
                skipped.remove(block);
                count(report);
                store.save(row.id(), graph, row.blocksDone(), row.builtTo(), rejected, row.status());
                store.setSkippedBlocks(row.id(), skipped);
            }
        }

        /**
         * The next block: the builder's edits applied and stored with the block; with {@code gaps}, a block
         * whose reply stayed unusable is remembered to be tried again.
         */
        void block(Blocks.Block block) {
            GraphEditor.Report report;
            boolean unusableBlock = false;
            if (gaps == null) {
                report = step(llm, graph, text, block, total, question, trace);
            } else {
                try {
                    report = edit(llm, graph, text, block, total, question);
                } catch (UnusableReplyException unusable) {
                    report = unusableBlock(trace, graph, text, block, unusable);
                    gaps.unusable(block, Failures.describe(unusable));
                    unusableBlock = true;
                }
            }
            calls++;
            built = block.index() + 1;
            count(report);
            boolean last = block.index() == total - 1;
            store.save(
                    row.id(),
                    graph,
                    block.index() + 1,
                    block.end(),
                    rejected,
                    last ? GraphStore.READY : GraphStore.BUILDING);
            if (unusableBlock) {
                skipped.add(block);
                store.setSkippedBlocks(row.id(), skipped);
            }
            trace.record(new MindGraphEvent.GraphBuild(
                    documentId,
                    block.index() + 1,
                    total,
                    List.of(block.start(), block.end()),
                    report.applied(),
                    report.rejected(),
                    report.rejections(),
                    report.tolerated(),
                    report.quoteMethods(),
                    graph.nodeCount(),
                    graph.edgeCount()));
        }

        private void count(GraphEditor.Report report) {
            report.rejected().forEach((reason, n) -> rejected.merge(reason, n, Integer::sum));
        }

        Built result(int blocks, boolean reused, boolean partial) {
            return new Built(row.id(), graph, blocks, rejected, reused, row.seededFrom(), calls, partial);
        }
    }

    private record Opened(GraphStore.GraphRow row, ConceptGraph graph) {}

    /** The stored graph for (document, question, block size, start), or a new one (seeded from the shared graph, if asked). */
    private Opened open(UUID documentId, String question, Start start, int chunkTokens, Trace trace) {
        boolean seeded = question != null && start == Start.SHARED;
        String scope = GraphStore.scopeOf(question) + (seeded ? SEEDED_SCOPE : "");
        GraphStore.GraphRow row = store.find(documentId, scope, chunkTokens).orElse(null);
        if (row != null) {
            return new Opened(row, store.load(row.id()));
        }
        GraphStore.GraphRow seed = !seeded
                ? null
                : store.shared(documentId)
                        .filter(s -> s.status().equals(GraphStore.READY))
                        .orElse(null);
        row = store.create(documentId, scope, question, chunkTokens, seed == null ? null : seed.id());
        ConceptGraph graph = seed == null ? ConceptGraph.empty() : store.load(seed.id());
        if (seed != null) {
            trace.record(new MindGraphEvent.GraphSeed(documentId, seed.id(), graph.nodeCount(), graph.edgeCount()));
        }
        return new Opened(row, graph);
    }

    /** Why the build may not start another block (the question's time, or the budget left for the answer), or null. */
    private static String stopReason(LlmSession llm, AnswerReserve reserve, Cancellation cancellation) {
        if (cancellation.isCancelled()) {
            return "the question ran out of wall time";
        }
        return reserve.leavesRoomAfterAnotherCall(llm.budget())
                ? null
                : "the rest of the question's budget is kept for answering from the graph so far";
    }

    private static void recordStop(Trace trace, LlmSession llm, UUID documentId, int built, int total, String stop) {
        trace.record(new MindGraphEvent.GraphStopped(
                documentId,
                built,
                total,
                stop,
                llm.budget().maxCalls() - llm.budget().calls(),
                llm.budget().remaining().toSeconds()));
    }

    /** The latest stored state of a graph that a build left part-way (a budget stop in the middle of a block's call). */
    Built partial(UUID documentId, String question, Start start, int chunkTokens) {
        boolean seeded = question != null && start == Start.SHARED;
        GraphStore.GraphRow row = store.find(
                        documentId, GraphStore.scopeOf(question) + (seeded ? SEEDED_SCOPE : ""), chunkTokens)
                .orElse(null);
        if (row == null) {
            return new Built(0, ConceptGraph.empty(), 0, Map.of(), false, null, 0, true);
        }
        return new Built(
                row.id(), store.load(row.id()), row.blocksDone(), row.rejected(), false, row.seededFrom(), 0, true);
    }

    /** One builder call over one block, outside a question (nothing traced). */
    static GraphEditor.Report step(
            LlmSession llm, ConceptGraph graph, String text, Blocks.Block block, int total, String question) {
        return step(llm, graph, text, block, total, question, Trace.NONE);
    }

    /**
     * One builder call over one block, its edits applied to {@code graph}. A reply with nothing usable
     * (cut at the output limit with no complete edit, say) adds nothing, is traced as {@code step.failed}
     * (its block as {@code chunk}),
     * and the build goes on with the next block.
     */
    static GraphEditor.Report step(
            LlmSession llm,
            ConceptGraph graph,
            String text,
            Blocks.Block block,
            int total,
            String question,
            Trace trace) {
        try {
            return edit(llm, graph, text, block, total, question);
        } catch (UnusableReplyException unusable) {
            return unusableBlock(trace, graph, text, block, unusable);
        }
    }

    /** The builder's edits for one block, applied; throws when its reply stayed unusable after the gateway's repair. */
    private static GraphEditor.Report edit(
            LlmSession llm, ConceptGraph graph, String text, Blocks.Block block, int total, String question) {
        return GraphEditor.apply(
                graph, ask(llm, graph, text, block, total, question).operations(), text, block);
    }

    /** The builder's edits for one block; throws when its reply stayed unusable after the gateway's repair. */
    private static BuildReply ask(
            LlmSession llm, ConceptGraph graph, String text, Blocks.Block block, int total, String question) {
        Map<String, Object> vars = new LinkedHashMap<>();
        vars.put("question", question == null ? NO_QUESTION : question);
        vars.put("focus", question == null ? SHARED_FOCUS : QUESTION_FOCUS);
        vars.put("graph", graph.isEmpty() ? "(empty)" : graph.compactJson());
        vars.put("blockNumber", block.index() + 1);
        vars.put("blocks", total);
        vars.put("block", text.substring(block.start(), block.end()));
        vars.put("maxOperations", MAX_OPERATIONS);
        return llm.structured(Role.BUILDER, TEMPLATE, vars, BuildReply.class);
    }

    /** A block whose reply had nothing usable: it adds nothing, and says so in the trace. */
    private static GraphEditor.Report unusableBlock(
            Trace trace, ConceptGraph graph, String text, Blocks.Block block, UnusableReplyException unusable) {
        trace.record(new StepEvent.Failed("build", null, block.index() + 1, unusable.getMessage()));
        return GraphEditor.apply(graph, List.of(), text, block).withRejection("unusable-reply", unusable.getMessage());
    }

    private static final String NO_QUESTION = "(none yet: this graph will serve many later questions about the text)";
    private static final String QUESTION_FOCUS =
            "- Prefer what bears on the question; leave out what cannot matter to it.";
    private static final String SHARED_FOCUS =
            "- There is no single question: keep the main people, places, events, claims, "
                    + "themes and figures, the things readers are most likely to ask about.";
}
