package io.lorekeeper.memory;

import java.util.List;

import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.stereotype.Service;

/**
 * The embedding API of the memory module. Queries and passages are embedded differently
 * (bge models expect an instruction in front of short queries), so callers say which they have.
 */
@Service
public class Embeddings {

    private final EmbeddingModel model;
    private final EmbeddingSettings settings;

    Embeddings(EmbeddingModel model, EmbeddingSettings settings) {
        this.model = model;
        this.settings = settings;
    }

    public float[] query(String query) {
        return model.embed(settings.queryPrefix() + query);
    }

    public List<float[]> passages(List<String> passages) {
        return passages.isEmpty() ? List.of() : model.embed(passages);
    }

    public int dimensions() {
        return model.dimensions();
    }
}
