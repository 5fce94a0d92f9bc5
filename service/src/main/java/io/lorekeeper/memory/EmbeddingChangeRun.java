package io.lorekeeper.memory;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionOperations;

import io.lorekeeper.document.ChunkEmbeddings;
import io.lorekeeper.platform.Failures;

/**
 * The job of an embedding change. Fills the next vectors of every document (recording each one done, so
 * that a revived job resumes after it), then of the documents that gained rows meanwhile, builds the
 * next columns' indexes, and switches: the change turns SWITCHING, which makes every replica hold its
 * embedding ({@link EmbeddingFollower}); after a grace of two follow intervals, so that every replica has
 * seen it and what it embedded before is written or searched, one transaction locks the vector tables
 * against writers, checks nothing is missing, swaps the columns and moves the stored model on.
 */
@Component
class EmbeddingChangeRun {

    private static final Logger log = LoggerFactory.getLogger(EmbeddingChangeRun.class);
    /** Rounds of filling what was written meanwhile before the change gives up on a source that never stops. */
    private static final int MAX_ROUNDS = 5;

    private final EmbeddingChangeRepository changes;
    private final EmbeddingModels models;
    private final VectorSets sets;
    private final ChunkEmbeddings chunks;
    private final JdbcClient jdbc;
    private final VectorColumns columns;
    private final TransactionOperations transactions;
    private final EmbeddingSettings settings;

    EmbeddingChangeRun(
            EmbeddingChangeRepository changes,
            EmbeddingModels models,
            VectorSets sets,
            ChunkEmbeddings chunks,
            JdbcClient jdbc,
            TransactionOperations transactions,
            EmbeddingSettings settings) {
        this.changes = changes;
        this.models = models;
        this.sets = sets;
        this.chunks = chunks;
        this.jdbc = jdbc;
        this.columns = new VectorColumns(jdbc);
        this.transactions = transactions;
        this.settings = settings;
    }

    void run(UUID id) {
        EmbeddingChange change = changes.findById(id).orElse(null);
        if (change == null || !change.running()) {
            return;
        }
        try {
            EmbeddingModels.Choice model = models.named(change.model())
                    .orElseThrow(() -> new IllegalStateException(
                            "the replica running the change does not know the embedding model " + change.model()));
            run(id, texts -> Embeddings.passages(model, texts));
        } catch (io.lorekeeper.platform.RetryLaterException later) {
            throw later; // re-queued: the job resumes after the documents it filled
        } catch (RuntimeException e) {
            if (current(id).state() == EmbeddingChange.State.CANCELLED) {
                log.info("Embedding change {} stopped: cancelled", id);
                return;
            }
            String reason = Failures.describe(e);
            log.warn("Embedding change {} failed: {}", id, reason);
            transactions.executeWithoutResult(s -> {
                EmbeddingChange failed = current(id);
                if (failed.running()) {
                    failed.fail(reason);
                    changes.save(failed);
                }
            });
            columns.dropNext(sets.all());
        }
    }

    /** The change with {@code embed} as the new model; throws where the change fails. */
    void run(UUID id, Function<List<String>, List<float[]>> embed) {
        if (current(id).state() == EmbeddingChange.State.SWITCHING) {
            // revived after its replica died during the grace: fill what may have been written since
            transactions.executeWithoutResult(s -> change(id, EmbeddingChange::refill));
        }
        for (int round = 0; round < MAX_ROUNDS; round++) {
            if (!fillAll(id, embed)) {
                return; // cancelled
            }
            columns.indexNext(sets.all());
            transactions.executeWithoutResult(s -> change(id, EmbeddingChange::switching));
            pause(settings.followInterval().multipliedBy(2).plusSeconds(1));
            if (switchOver(id)) {
                log.info(
                        "Embedding change {} switched the stored vectors to {}",
                        id,
                        current(id).model());
                return;
            }
        }
        throw new IllegalStateException(
                "vectors kept being written without their new ones after " + MAX_ROUNDS + " rounds of filling them");
    }

    /** Fills every document not yet done, then those with rows written since; false when cancelled. */
    private boolean fillAll(UUID id, Function<List<String>, List<float[]>> embed) {
        Set<UUID> done =
                new LinkedHashSet<>(jdbc.sql("SELECT document_id FROM embedding_change_document WHERE change_id = ?")
                        .param(id)
                        .query(UUID.class)
                        .list());
        List<UUID> documents = chunks.documentsWithChunks();
        for (UUID document : documents) {
            if (done.contains(document)) {
                continue;
            }
            if (current(id).state() == EmbeddingChange.State.CANCELLED) {
                return false;
            }
            fill(document, embed);
            jdbc.sql(
                            "INSERT INTO embedding_change_document (change_id, document_id) VALUES (?, ?) ON CONFLICT DO NOTHING")
                    .params(id, document)
                    .update();
            done.add(document);
            int doneNow = done.size();
            int total = documents.size();
            transactions.executeWithoutResult(s -> change(id, c -> c.progress(Math.min(doneNow, total), total)));
        }
        for (int round = 0; round < MAX_ROUNDS; round++) {
            Set<UUID> lagging = lagging();
            if (lagging.isEmpty()) {
                return true;
            }
            lagging.forEach(document -> fill(document, embed));
        }
        return true;
    }

    private void fill(UUID document, Function<List<String>, List<float[]>> embed) {
        for (VectorSet set : sets.inOrder()) {
            set.fill(document, embed);
        }
    }

    /** Swaps the columns unless vectors were written without their new ones meanwhile (then false, to fill them). */
    private boolean switchOver(UUID id) {
        Boolean switched = transactions.execute(s -> {
            jdbc.sql("LOCK TABLE " + String.join(", ", sets.all()) + " IN SHARE ROW EXCLUSIVE MODE")
                    .update();
            EmbeddingChange change = current(id);
            if (!lagging().isEmpty()) {
                change.refill();
                changes.save(change);
                return false;
            }
            sets.inOrder().forEach(VectorSet::beforeSwap);
            columns.swap(sets.all());
            jdbc.sql(
                            "UPDATE embedding_model SET name = ?, dimensions = ?, generation = generation + 1, recorded_at = now()")
                    .params(change.model(), change.dimensions())
                    .update();
            change.switched();
            changes.save(change);
            return true;
        });
        return Boolean.TRUE.equals(switched);
    }

    private Set<UUID> lagging() {
        Set<UUID> lagging = new LinkedHashSet<>();
        sets.filled().forEach(table -> lagging.addAll(columns.lagging(table)));
        return lagging;
    }

    private EmbeddingChange current(UUID id) {
        return changes.findById(id).orElseThrow();
    }

    private void change(UUID id, Consumer<EmbeddingChange> transition) {
        EmbeddingChange change = current(id);
        transition.accept(change);
        changes.save(change);
    }

    private static void pause(java.time.Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted before the switch", e);
        }
    }
}
