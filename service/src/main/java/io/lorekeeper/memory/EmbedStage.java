package io.lorekeeper.memory;

import java.util.List;
import java.util.UUID;

import org.springframework.stereotype.Component;

import io.lorekeeper.document.ChunkEmbeddings;
import io.lorekeeper.document.stage.IngestionStage;
import io.lorekeeper.document.stage.StageOrder;
import io.lorekeeper.document.stage.StageRun;

/**
 * Embeds every chunk of a document, one batch per checkpoint: each batch is written before the
 * next is computed, so a job killed half-way only redoes the batch it was in. A chunk that has a
 * context (its page's header, once the page-headers stage wrote it) is embedded with it in front.
 */
@Component
class EmbedStage implements IngestionStage {

    private final ChunkEmbeddings chunks;
    private final Embeddings embeddings;
    private final EmbeddingSettings settings;

    EmbedStage(ChunkEmbeddings chunks, Embeddings embeddings, EmbeddingSettings settings) {
        this.chunks = chunks;
        this.embeddings = embeddings;
        this.settings = settings;
    }

    @Override
    public String name() {
        return "embed";
    }

    @Override
    public int position() {
        return StageOrder.EMBED;
    }

    @Override
    public void run(StageRun run) {
        UUID documentId = run.document().id();
        int total = chunks.chunkCount(documentId);
        int done = chunks.embeddedCount(documentId);
        run.progress(done, total);
        while (true) {
            List<ChunkEmbeddings.Pending> batch = chunks.pending(documentId, settings.batchSize());
            if (batch.isEmpty()) {
                return;
            }
            List<float[]> vectors = embeddings.passages(
                    batch.stream().map(p -> withContext(p.context(), p.text())).toList());
            chunks.store(batch.stream().map(ChunkEmbeddings.Pending::id).toList(), vectors);
            done += batch.size();
            run.progress(done, total);
        }
    }

    /** What a chunk is embedded as: its context (its page's header) on a line before its text, when it has one. */
    static String withContext(String context, String text) {
        return context == null || context.isBlank() ? text : context + "\n" + text;
    }

    @Override
    public void reset(UUID documentId) {
        chunks.clear(documentId);
    }
}
