package io.lorekeeper.memory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

import org.springframework.ai.document.Document;
import org.springframework.ai.embedding.Embedding;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.ai.embedding.EmbeddingRequest;
import org.springframework.ai.embedding.EmbeddingResponse;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import io.lorekeeper.text.SentenceSplitter;
import io.lorekeeper.text.Span;

/**
 * <strong>For scale benchmarks only</strong> ({@code lorekeeper.embedding.mode=sentence-mean}): a
 * passage's vector is the normalised mean of its sentences' vectors, each distinct sentence embedded
 * once by the real model and then cached. Search queries still go to the real model unchanged.
 *
 * <p>Why it exists: measuring search latency over 10M tokens of stored text would otherwise mean
 * embedding 10M tokens (about half an hour on two cores) for every run. The scale benchmark stores
 * text recombined from the novels' sentences instead, so after the first pass every sentence is
 * cached and each new chunk still gets its own vector, distributed like real passage vectors
 * (same model, same space, clustered by topic) rather than random or duplicated ones, which
 * would flatter or cripple the HNSW index. Answers over such vectors are slightly worse than over
 * real chunk embeddings, which is why no deployment should turn it on.
 */
final class SentenceMeanEmbeddingModel implements EmbeddingModel, AutoCloseable {

    private final EmbeddingModel model;
    private final Cache<String, float[]> sentences;

    SentenceMeanEmbeddingModel(EmbeddingModel model, long maxCachedSentences) {
        this.model = model;
        this.sentences = Caffeine.newBuilder().maximumSize(maxCachedSentences).build();
    }

    @Override
    public EmbeddingResponse call(EmbeddingRequest request) {
        List<String> texts = request.getInstructions();
        List<List<String>> split =
                texts.stream().map(SentenceMeanEmbeddingModel::sentences).toList();
        Map<String, float[]> vectors = vectors(split);
        List<Embedding> out = new ArrayList<>(texts.size());
        for (int i = 0; i < texts.size(); i++) {
            out.add(new Embedding(mean(split.get(i), vectors), i));
        }
        return new EmbeddingResponse(out);
    }

    /** A single text is a search query (see {@code Embeddings.query}): the real model embeds it whole. */
    @Override
    public float[] embed(String text) {
        return model.embed(text);
    }

    @Override
    public float[] embed(Document document) {
        return embed(document.getText());
    }

    @Override
    public int dimensions() {
        return model.dimensions();
    }

    /** Spring closes the bean it returned, this wrapper: the model's sessions and threads go with it. */
    @Override
    public void close() throws Exception {
        if (model instanceof AutoCloseable closeable) {
            closeable.close();
        }
    }

    /** The vector of every sentence of the batch: cached ones, and the rest embedded in one call and cached. */
    private Map<String, float[]> vectors(List<List<String>> split) {
        Map<String, float[]> found = new HashMap<>();
        LinkedHashSet<String> missing = new LinkedHashSet<>();
        for (List<String> list : split) {
            for (String s : list) {
                float[] cached = sentences.getIfPresent(s);
                if (cached != null) {
                    found.put(s, cached);
                } else {
                    missing.add(s);
                }
            }
        }
        if (!missing.isEmpty()) {
            List<String> batch = List.copyOf(missing);
            List<float[]> embedded = model.embed(batch);
            for (int i = 0; i < batch.size(); i++) {
                found.put(batch.get(i), embedded.get(i));
                sentences.put(batch.get(i), embedded.get(i));
            }
        }
        return found;
    }

    private float[] mean(List<String> parts, Map<String, float[]> vectors) {
        float[] sum = new float[model.dimensions()];
        for (String s : parts) {
            float[] v = vectors.get(s);
            for (int d = 0; d < sum.length; d++) {
                sum[d] += v[d];
            }
        }
        double norm = 0;
        for (float x : sum) {
            norm += x * x;
        }
        norm = Math.sqrt(norm);
        if (norm > 0) {
            for (int d = 0; d < sum.length; d++) {
                sum[d] /= (float) norm;
            }
        }
        return sum;
    }

    /** The passage's sentences, blank ones dropped; a passage without any is its own sentence. */
    static List<String> sentences(String text) {
        List<String> out = new ArrayList<>();
        for (Span s : SentenceSplitter.split(text)) {
            String sentence = s.of(text).strip();
            if (!sentence.isEmpty()) {
                out.add(sentence);
            }
        }
        return out.isEmpty() ? List.of(text) : out;
    }
}
