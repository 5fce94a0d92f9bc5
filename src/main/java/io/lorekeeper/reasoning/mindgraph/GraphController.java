package io.lorekeeper.reasoning.mindgraph;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

import io.lorekeeper.document.Documents;
import io.lorekeeper.platform.ApiProblem;
import io.lorekeeper.security.CurrentTenant;
import io.swagger.v3.oas.annotations.Operation;
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

    @GetMapping("/v1/documents/{id}/graph")
    @Operation(summary = "The document's concept graph (MindGraph), built by the graph ingestion stage",
            description = "Nodes and edges with their source spans [start, end) in the canonical text, and the Leiden communities.")
    Map<String, Object> graph(@PathVariable UUID id) {
        documents.find(tenant.id(), id).orElseThrow(() -> ApiProblem.notFound("Document", id));
        GraphStore.GraphRow row = store.shared(id).orElseThrow(() -> new ApiProblem(HttpStatus.NOT_FOUND, "no-graph",
                "No graph", "document " + id + " has no concept graph; it is built by the graph stage when an LLM is configured", null));
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
                .map(c -> Map.<String, Object>of("id", c.id(), "nodes", c.nodeIds())).toList();
        out.put("communities", communities);
        return out;
    }
}
