package io.lorekeeper.memory;

import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import io.lorekeeper.document.ChunkEmbeddings;
import io.lorekeeper.platform.ApiProblem;

/**
 * Moving the stored vectors to another embedding model while search goes on: a change adds a next
 * column beside every vector column, its job ({@link EmbeddingChangeRun}) fills them document by
 * document with the new model and swaps them in, and every replica then embeds with the new model
 * ({@link EmbeddingFollower}). The old vectors are dropped only by the swap; a cancelled or failed change
 * drops the next columns and leaves the live ones as they were.
 */
@Service
class EmbeddingChanges {

    private final EmbeddingChangeRepository changes;
    private final EmbeddingModels models;
    private final StoredEmbeddingModel stored;
    private final VectorSets sets;
    private final VectorColumns columns;
    private final ChunkEmbeddings chunks;
    private final EmbeddingChangeJob.EmbeddingChangeScheduler jobs;

    EmbeddingChanges(
            EmbeddingChangeRepository changes,
            EmbeddingModels models,
            StoredEmbeddingModel stored,
            VectorSets sets,
            org.springframework.jdbc.core.simple.JdbcClient jdbc,
            ChunkEmbeddings chunks,
            EmbeddingChangeJob.EmbeddingChangeScheduler jobs) {
        this.changes = changes;
        this.models = models;
        this.stored = stored;
        this.sets = sets;
        this.columns = new VectorColumns(jdbc);
        this.chunks = chunks;
        this.jobs = jobs;
    }

    /** Starts moving the vectors to {@code model}, one this replica can load. */
    @Transactional
    EmbeddingChange start(String model) {
        if (model == null || model.isBlank()) {
            throw ApiProblem.invalid("model", "model must name an embedding model");
        }
        if (!models.names().contains(model)) {
            throw ApiProblem.invalid(
                    "model",
                    "this replica knows the embedding models " + models.names() + ", not " + model
                            + " (lorekeeper.embedding.alternatives lists the others it may load)");
        }
        running().ifPresent(r -> {
            throw ApiProblem.conflict(
                    "embedding-change-running",
                    "Embedding change running",
                    "the change " + r.id() + " to " + r.model() + " is " + r.state() + "; cancel it or wait for it",
                    null);
        });
        StoredEmbeddingModel.Stored now = stored.current().orElseThrow();
        if (now.name().equals(model)) {
            throw ApiProblem.conflict(
                    "embedding-model-unchanged",
                    "Already the embedding model",
                    "the stored vectors are already " + now.described(),
                    "model");
        }
        int dimensions;
        try {
            dimensions = models.named(model).orElseThrow().model().dimensions();
        } catch (RuntimeException e) {
            throw ApiProblem.invalid("model", "the embedding model " + model + " cannot be loaded: " + e.getMessage());
        }
        if (dimensions < 1 || dimensions > VectorColumns.MAX_INDEXED_DIMENSIONS) {
            throw ApiProblem.invalid(
                    "model",
                    model + " makes " + dimensions + "-dimensional vectors; the vector index takes 1 to "
                            + VectorColumns.MAX_INDEXED_DIMENSIONS);
        }
        List<String> all = sets.all();
        List<String> uncovered = columns.all().stream()
                .map(VectorColumns.Column::table)
                .filter(t -> !all.contains(t))
                .toList();
        if (!uncovered.isEmpty()) {
            throw new IllegalStateException(
                    "no VectorSet fills the vectors of " + uncovered + " (filled: " + sets.filled() + ")");
        }
        EmbeddingChange change = EmbeddingChange.request(
                model, dimensions, now.name(), chunks.documentsWithChunks().size());
        changes.save(change);
        columns.addNext(all, dimensions);
        jobs.schedule(change.id());
        return change;
    }

    /** Stops a change that is filling; its next columns are dropped, the live vectors stay. */
    @Transactional
    EmbeddingChange cancel(UUID id) {
        EmbeddingChange change = find(id);
        change.cancel();
        changes.saveAndFlush(change);
        columns.dropNext(sets.all());
        return change;
    }

    EmbeddingChange find(UUID id) {
        return changes.findById(id).orElseThrow(() -> ApiProblem.notFound("Embedding change", id));
    }

    Optional<EmbeddingChange> running() {
        return changes
                .findByStateIn(EnumSet.of(EmbeddingChange.State.FILLING, EmbeddingChange.State.SWITCHING))
                .stream()
                .findFirst();
    }

    List<EmbeddingChange> recent() {
        return changes.findTop20ByOrderByRequestedAtDesc();
    }
}
