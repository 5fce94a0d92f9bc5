package io.lorekeeper.memory;

import java.util.ArrayList;
import java.util.List;

import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.stereotype.Service;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * The embedding API of the memory module. Queries and passages are embedded differently
 * (bge models expect an instruction in front of short queries), so callers say which they have.
 */
@Service
public class Embeddings {

    /** Passages embedded at question time (a strategy scoring sentences of retrieved chunks) recur from question to question. */
    private static final int CACHED_PASSAGES = 50_000;

    private final EmbeddingModel model;
    private final EmbeddingSettings settings;
    private final Cache<String, float[]> recent = Caffeine.newBuilder().maximumSize(CACHED_PASSAGES).build();

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

    /**
     * Like {@link #passages}, but passages embedded recently by this method are not embedded again:
     * for short texts asked about repeatedly, such as the sentences a question-time scorer ranks.
     * Ingestion does not use it (every chunk is new there).
     */
    public List<float[]> recentPassages(List<String> passages) {
        List<String> missing = passages.stream().distinct().filter(p -> recent.getIfPresent(p) == null).toList();
        if (!missing.isEmpty()) {
            List<float[]> vectors = model.embed(missing);
            for (int i = 0; i < missing.size(); i++) {
                recent.put(missing.get(i), vectors.get(i));
            }
        }
        List<float[]> out = new ArrayList<>(passages.size());
        for (String p : passages) {
            float[] v = recent.getIfPresent(p);
            out.add(v != null ? v : model.embed(p)); // evicted between the two loops: rare, embed it alone
        }
        return out;
    }

    public int dimensions() {
        return model.dimensions();
    }
}
