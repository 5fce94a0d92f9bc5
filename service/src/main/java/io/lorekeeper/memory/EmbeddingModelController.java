package io.lorekeeper.memory;

import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.lorekeeper.platform.ApiDocs;
import io.lorekeeper.platform.LocationResponse;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

/** The deployment's embedding model and moving its stored vectors to another one; the admin key's. */
@RestController
@Tag(
        name = "Embedding model",
        description =
                "Which model the stored vectors were made with, and moving them to another without stopping search")
class EmbeddingModelController {

    private final EmbeddingChanges changes;
    private final StoredEmbeddingModel stored;
    private final EmbeddingModels models;
    private final Embeddings embeddings;

    EmbeddingModelController(
            EmbeddingChanges changes, StoredEmbeddingModel stored, EmbeddingModels models, Embeddings embeddings) {
        this.changes = changes;
        this.stored = stored;
        this.models = models;
        this.embeddings = embeddings;
    }

    @Schema(name = "EmbeddingModel", description = "The model the stored vectors were made with")
    record ModelView(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "As the stored vectors record it")
            String name,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            int dimensions,

            @Schema(
                    requiredMode = Schema.RequiredMode.REQUIRED,
                    description = "Changes the database has seen, plus one")
            long generation,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "The model this replica embeds with now")
            String replicaModel,

            @Schema(
                    requiredMode = Schema.RequiredMode.REQUIRED,
                    description = "The models this replica can move the vectors to")
            List<String> available,

            @Schema(description = "The change filling or switching now, if any")
            ChangeView change) {}

    @Schema(name = "EmbeddingChangeRequest", description = "Move the stored vectors to another model")
    record ChangeRequest(
            @Schema(
                    requiredMode = Schema.RequiredMode.REQUIRED,
                    description = "One of the models this deployment lists (`available`)")
            String model) {}

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "EmbeddingChange", description = "Moving the stored vectors to another model")
    record ChangeView(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            UUID id,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            String model,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            int dimensions,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            String fromModel,

            @Schema(
                    requiredMode = Schema.RequiredMode.REQUIRED,
                    description = "FILLING (search uses the old vectors), SWITCHING, SWITCHED, CANCELLED or FAILED",
                    allowableValues = {"FILLING", "SWITCHING", "SWITCHED", "CANCELLED", "FAILED"})
            String state,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "Documents whose vectors are filled")
            int documentsDone,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            int documentsTotal,

            String failure,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            Instant requestedAt,

            Instant finishedAt,

            Map<String, String> links) {

        static ChangeView of(EmbeddingChange c) {
            return new ChangeView(
                    c.id(),
                    c.model(),
                    c.dimensions(),
                    c.fromModel(),
                    c.state().name(),
                    c.documentsDone(),
                    c.documentsTotal(),
                    c.failure(),
                    c.requestedAt(),
                    c.finishedAt(),
                    Map.of("self", "/v1/embedding-model/changes/" + c.id()));
        }
    }

    @Schema(name = "EmbeddingChangeList", description = "The latest changes, newest first (at most 20)")
    record ChangeList(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            List<ChangeView> changes) {}

    @GetMapping("/v1/embedding-model")
    @Operation(
            operationId = "getEmbeddingModel",
            summary = "The model the stored vectors were made with",
            description =
                    "With the models this replica can move them to and the change under way, if any. Needs the admin key.")
    @ApiResponse(responseCode = "200", description = "The stored model")
    ModelView get() {
        StoredEmbeddingModel.Stored now = stored.current().orElseThrow();
        return new ModelView(
                now.name(),
                now.dimensions(),
                now.generation(),
                embeddings.modelName(),
                models.names(),
                changes.running().map(ChangeView::of).orElse(null));
    }

    @PostMapping("/v1/embedding-model/changes")
    @Operation(
            operationId = "changeEmbeddingModel",
            summary = "Move the stored vectors to another model",
            description =
                    "Every vector (chunks, memos, sentences, ComoRAG's units, facts and summaries) is embedded again"
                            + " with the model in the background while search goes on with the old ones; when every document is"
                            + " done the vectors are switched in one transaction and every replica embeds with the new model."
                            + " ComoRAG's entity graphs are built again at their next question. One change at a time. Needs the"
                            + " admin key.")
    @LocationResponse(code = "202", description = "Accepted: follow its progress at the Location")
    @ApiResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @ApiResponse(responseCode = "409", ref = ApiDocs.CONFLICT)
    ResponseEntity<ChangeView> change(@RequestBody ChangeRequest request) {
        EmbeddingChange change = changes.start(request == null ? null : request.model());
        return ResponseEntity.accepted()
                .location(URI.create("/v1/embedding-model/changes/" + change.id()))
                .body(ChangeView.of(change));
    }

    @GetMapping("/v1/embedding-model/changes")
    @Operation(
            operationId = "listEmbeddingChanges",
            summary = "The latest embedding changes, newest first",
            description = "At most 20, each with its state and progress. Needs the admin key.")
    @ApiResponse(responseCode = "200", description = "The changes")
    ChangeList list() {
        return new ChangeList(changes.recent().stream().map(ChangeView::of).toList());
    }

    @GetMapping("/v1/embedding-model/changes/{id}")
    @Operation(
            operationId = "getEmbeddingChange",
            summary = "An embedding change and its progress",
            description = "`documentsDone` of `documentsTotal` while it fills.")
    @ApiResponse(responseCode = "200", description = "The change")
    @ApiResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    ChangeView get(@PathVariable UUID id) {
        return ChangeView.of(changes.find(id));
    }

    @PostMapping("/v1/embedding-model/changes/{id}/cancel")
    @Operation(
            operationId = "cancelEmbeddingChange",
            summary = "Stop a change that is filling",
            description = "The vectors it filled are dropped; the stored ones stay as they were.")
    @ApiResponse(responseCode = "200", description = "Cancelled")
    @ApiResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @ApiResponse(responseCode = "409", ref = ApiDocs.CONFLICT)
    ChangeView cancel(@PathVariable UUID id) {
        return ChangeView.of(changes.cancel(id));
    }
}
