package io.lorekeeper.memory;

import java.util.List;
import java.util.UUID;
import java.util.function.Function;

import org.springframework.stereotype.Component;

import io.lorekeeper.document.ChunkEmbeddings;

/** The chunks' vectors, embedded again as the embed stage embeds them (each with its page's header). */
@Component
class ChunkVectorSet implements VectorSet {

    private final ChunkEmbeddings chunks;
    private final EmbeddingSettings settings;

    ChunkVectorSet(ChunkEmbeddings chunks, EmbeddingSettings settings) {
        this.chunks = chunks;
        this.settings = settings;
    }

    @Override
    public List<String> tables() {
        return List.of("chunk");
    }

    @Override
    public int order() {
        return 10;
    }

    @Override
    public void fill(UUID documentId, Function<List<String>, List<float[]>> embed) {
        while (true) {
            List<ChunkEmbeddings.Pending> batch = chunks.pendingNext(documentId, settings.batchSize());
            if (batch.isEmpty()) {
                return;
            }
            chunks.storeNext(
                    batch.stream().map(ChunkEmbeddings.Pending::id).toList(),
                    embed.apply(batch.stream()
                            .map(p -> EmbedStage.withContext(p.context(), p.text()))
                            .toList()));
        }
    }
}
