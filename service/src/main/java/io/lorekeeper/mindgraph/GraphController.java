package io.lorekeeper.mindgraph;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

import io.lorekeeper.document.Documents;
import io.lorekeeper.platform.ApiDocs;
import io.lorekeeper.platform.ApiProblem;
import io.lorekeeper.security.CurrentTenant;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

/** The shared (question-agnostic) MindGraph of a document, for clients that draw it. */
@RestController
@Tag(name = "Documents")
class GraphController {

    private final GraphStore store;
    private final Documents documents;
    private final CurrentTenant tenant;
    private final MindGraphSettings settings;

    GraphController(GraphStore store, Documents documents, CurrentTenant tenant, MindGraphSettings settings) {
        this.store = store;
        this.documents = documents;
        this.tenant = tenant;
        this.settings = settings;
    }

    /** The body {@link #graph} writes, for the spec (it is assembled from the graph's own view, which also keys its cache). */
    @Schema(description = "A document's concept graph")
    record DocumentGraph(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            UUID documentId,

            @Schema(description = "Build state of the graph", requiredMode = Schema.RequiredMode.REQUIRED)
            String status,

            @Schema(description = "Tokens per block the builder read")
            int chunkTokens,

            @Schema(description = "Blocks built so far") int blocks,

            @Schema(description = "End offset of the text built so far")
            int builtTo,

            @Schema(description = "Edits the builder refused, by reason")
            Map<String, Integer> rejected,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            List<GraphNode> nodes,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            List<GraphEdge> edges,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            List<GraphCommunity> communities) {}

    @Schema(description = "A concept with its source span [start, end) (UTF-16 code units into the canonical text)")
    record GraphNode(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            String id,

            @Schema(allowableValues = {"entity", "event", "claim", "concept", "stat"})
            String type,

            String content,
            int start,
            int end,

            @Schema(description = "The canonical text in [start, end)")
            String quote,

            @Schema(description = "Ordinal of the block it was built from")
            int chunk,

            @Schema(description = "Spans of nodes merged into this one, as [start, end] pairs")
            List<List<Integer>> mergedSpans) {}

    @Schema(description = "A relation between two nodes, with the span that states it")
    record GraphEdge(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            String source,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            String target,

            String relation,
            int start,
            int end,
            int chunk) {}

    @Schema(description = "A Leiden community of nodes")
    record GraphCommunity(int id, List<String> nodes) {}

    @GetMapping("/v1/documents/{id}/graph")
    @ApiResponse(
            responseCode = "200",
            description = "The graph",
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(implementation = DocumentGraph.class)))
    @ApiResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @Operation(
            operationId = "getDocumentGraph",
            summary = "The document's concept graph (MindGraph), built by the graph ingestion stage",
            description =
                    "Nodes and edges with their source spans [start, end) in the canonical text, and the Leiden communities.")
    Map<String, Object> graph(@PathVariable UUID id) {
        documents.find(tenant.id(), id).orElseThrow(() -> ApiProblem.notFound("Document", id));
        GraphStore.GraphRow row = store.shared(id)
                .orElseThrow(() -> new ApiProblem(
                        ApiProblem.Kind.NOT_FOUND,
                        "no-graph",
                        "No graph",
                        "document " + id
                                + " has no concept graph; it is built by the graph stage when an LLM is configured",
                        null));
        ConceptGraph graph = store.load(row.id());
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("documentId", id);
        out.put("status", row.status());
        out.put("chunkTokens", row.chunkTokens());
        out.put("blocks", row.blocksDone());
        out.put("builtTo", row.builtTo());
        out.put("rejected", row.rejected());
        Map<String, Object> view = graph.view(documents.text(id));
        out.putAll(view);
        List<Map<String, Object>> communities = Communities.detect(graph, settings.maxClusterSize()).stream()
                .map(c -> Map.<String, Object>of("id", c.id(), "nodes", c.nodeIds()))
                .toList();
        out.put("communities", communities);
        return out;
    }
}
