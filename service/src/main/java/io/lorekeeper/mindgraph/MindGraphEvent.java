package io.lorekeeper.mindgraph;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonTypeName;

import io.lorekeeper.strategy.TraceEvent;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * What MindGraph records: the build block by block (where it started, each block's edits, a stop
 * for the budget), the graph a question answers from, each tool call, the communities the
 * {@code subgraph_summary} tool reads, the compaction and the answer. Budget stops and unusable
 * replies are the shared {@link io.lorekeeper.strategy.StepEvent}s.
 */
public sealed interface MindGraphEvent extends TraceEvent {

    /**
     * A question-aware build started from the document's shared graph instead of the empty one: the
     * question's graph holds the shared graph's nodes and edges before its first block.
     */
    @JsonTypeName("mindgraph.graph-seed")
    @Schema(name = "MindGraphGraphSeed")
    record GraphSeed(UUID documentId, long sharedGraph, int nodes, int edges) implements MindGraphEvent {}

    /**
     * The build stopped before block {@code blocksBuilt + 1} of {@code blocks}: the question's time or
     * the budget kept for answering ran short, and the question is answered from the graph so far (the
     * next question resumes the build).
     */
    @JsonTypeName("mindgraph.graph-stopped")
    @Schema(name = "MindGraphGraphStopped")
    record GraphStopped(UUID documentId, int blocksBuilt, int blocks, String reason, int callsLeft, long secondsLeft)
            implements MindGraphEvent {}

    /**
     * One block built: the builder's edits applied, rejected (by reason, and each one) and tolerated,
     * how its quotes were found, and the graph's size after it.
     *
     * @param block the block's number, from 1
     * @param span  the block's start and end in the text
     */
    @JsonTypeName("mindgraph.graph-build")
    @Schema(name = "MindGraphGraphBuild")
    record GraphBuild(
            UUID documentId,
            int block,
            int blocks,
            List<Integer> span,
            Map<String, Integer> applied,
            Map<String, Integer> rejected,
            List<Rejection> rejections,
            Map<String, Integer> tolerated,
            Map<String, Integer> quotesFound,
            int nodes,
            int edges)
            implements MindGraphEvent {}

    /**
     * An edit of a block left out: the edit ({@code op}, and the node or edge source it named) and why;
     * a whole reply that could not be used is one rejection with the problem as {@code detail}.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "MindGraphRejection")
    record Rejection(String op, String id, String reason, String detail) {}

    /**
     * The graph of one document the question answers from: how it came about (built, reused, seeded,
     * partial), its size against the document's, and the graph itself as clients draw it (nodes with
     * their quotes, edges).
     *
     * @param mode       {@code question} (a question-aware build) or {@code shared}
     * @param seededFrom the shared graph a seeded build started from
     * @param graph      the view {@code GET /v1/documents/{id}/graph} returns
     */
    @JsonTypeName("mindgraph.graph")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "MindGraphGraph")
    record Graph(
            UUID documentId,
            long graphId,
            String mode,
            boolean reused,
            int builderCalls,
            Long seededFrom,
            int blocks,
            int nodes,
            int edges,
            Map<String, Integer> rejected,
            int graphTokens,
            int documentTokens,
            boolean partial,
            double graphCompaction,
            Map<String, Object> graph)
            implements MindGraphEvent {}

    /** One tool call of the answer stage, with its result (cut at 2,000 characters). */
    @JsonTypeName("mindgraph.tool")
    @Schema(name = "MindGraphTool")
    record Tool(int round, String tool, String arguments, String result) implements MindGraphEvent {

        static final int RESULT_CHARS = 2000;

        static Tool of(int round, String tool, String arguments, String result) {
            return new Tool(
                    round,
                    tool,
                    arguments,
                    result.length() > RESULT_CHARS ? result.substring(0, RESULT_CHARS) + "…" : result);
        }
    }

    /**
     * The community reports {@code subgraph_summary} reads: {@code cached} when stored reports of this
     * exact graph were reused, else written now ({@code sizes}: each community's node count).
     */
    @JsonTypeName("mindgraph.graph-communities")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "MindGraphGraphCommunities")
    record GraphCommunities(String graphHash, int communities, boolean cached, List<Integer> sizes)
            implements MindGraphEvent {}

    /**
     * The paper's compaction: the answerer's first call's input tokens over the documents' tokens,
     * beside the graph alone's share.
     *
     * @param documentId the document, when the question has one
     */
    @JsonTypeName("mindgraph.compaction")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "MindGraphCompaction")
    record Compaction(
            UUID documentId,
            long firstCallInputTokens,
            int documentTokens,
            double compaction,
            int graphTokens,
            double graphCompaction)
            implements MindGraphEvent {}

    /**
     * The tool loop's answer: the nodes it cited (those not in the graph apart), the passages it read,
     * and the quotes it gave that were dropped or found in another passage than the one it named.
     *
     * @param confidence the answerer's own word (high, medium, low), where it gave one
     */
    @JsonTypeName("mindgraph.answer")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "MindGraphAnswer")
    record Answer(
            String answer,
            String confidence,
            List<String> citedNodes,
            List<String> unknownNodes,
            List<String> lookedUp,
            int quotesDropped,
            int quotesFoundInAnotherPassage,
            boolean fromPartialGraph)
            implements MindGraphEvent {}

    /**
     * The budget refused even the last resort's call: the answer is the content of the node looked up
     * last (else the node matching the question best), with no confidence.
     */
    @JsonTypeName("mindgraph.node-answer")
    @Schema(name = "MindGraphNodeAnswer")
    record NodeAnswer(String answer, double confidence, String fromNode) implements MindGraphEvent {}
}
