package io.lorekeeper.memory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import jakarta.annotation.PreDestroy;

import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Service;

import com.github.benmanes.caffeine.cache.AsyncCache;
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
    /**
     * Asynchronous so that concurrent callers share an embedding in progress: 32 questions arriving
     * together on a fresh document each embedded the same few hundred sentences (p50 16.5 s against
     * 1.4 s warm); now the first caller embeds a sentence and the others wait for it.
     */
    private final AsyncCache<String, float[]> recent =
            Caffeine.newBuilder().maximumSize(CACHED_PASSAGES).buildAsync();
    /**
     * Queries recur too: a strategy searches with the question more than once, an evaluation asks
     * each question with several probes. A query costs milliseconds of model time, about as much as
     * the rest of a search.
     */
    private final Cache<String, float[]> queries;
    /**
     * Requests run on virtual threads, and a virtual thread inside ONNX Runtime's native code pins
     * its carrier: with one carrier per core, two concurrent query embeddings on two cores stopped
     * every other request of the JVM (reading results, writing responses) until they finished. The
     * model runs on these platform threads instead and the request's virtual thread waits unmounted.
     */
    private final ExecutorService queryThreads;
    /** e5 models expect {@code "passage: "} before each passage as bge expects its instruction before queries. */
    private final String passagePrefix;

    private final EmbeddingMeter meter;

    /** Checked against the model the stored vectors were made with before anything is embedded. */
    @Autowired
    Embeddings(
            EmbeddingModel model,
            EmbeddingSettings settings,
            StoredEmbeddingModel stored,
            io.micrometer.core.instrument.MeterRegistry registry) {
        this(model, settings, stored.passagePrefix(), new EmbeddingMeter(registry));
    }

    Embeddings(EmbeddingModel model, EmbeddingSettings settings) {
        this(model, settings, "", EmbeddingMeter.unregistered());
    }

    private Embeddings(EmbeddingModel model, EmbeddingSettings settings, String passagePrefix, EmbeddingMeter meter) {
        this.meter = meter;
        this.model = model;
        this.settings = settings;
        this.passagePrefix = passagePrefix;
        this.queries = settings.queryCacheSize() > 0
                ? Caffeine.newBuilder().maximumSize(settings.queryCacheSize()).build()
                : null;
        int threads = settings.effectiveQueryThreads();
        this.queryThreads = threads > 0
                ? Executors.newFixedThreadPool(
                        threads,
                        Thread.ofPlatform().name("embed-query-", 0).daemon().factory())
                : null;
    }

    @PreDestroy
    void close() {
        if (queryThreads != null) {
            queryThreads.shutdownNow();
        }
    }

    /** The query's vector; callers must not modify it (it is shared with later callers of the same query). */
    public float[] query(String query) {
        return queries == null ? embedQuery(query) : queries.get(query, this::embedQuery);
    }

    private float[] embedQuery(String query) {
        String text = settings.queryPrefix() + query;
        if (queryThreads == null) {
            return meter.query(text, () -> model.embed(text));
        }
        try {
            return CompletableFuture.supplyAsync(() -> meter.query(text, () -> model.embed(text)), queryThreads)
                    .join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
    }

    public List<float[]> passages(List<String> passages) {
        return passages.isEmpty() ? List.of() : meter.passages(passages, () -> model.embed(asPassages(passages)));
    }

    /**
     * Like {@link #passages}, but passages embedded recently by this method are not embedded again:
     * for short texts asked about repeatedly, such as the sentences a question-time scorer ranks.
     * Ingestion does not use it (every chunk is new there).
     */
    public List<float[]> recentPassages(List<String> passages) {
        if (passages.isEmpty()) {
            return List.of();
        }
        Map<String, float[]> vectors;
        try {
            // the passages no one has or is embedding are embedded here in one batch; the rest are waited for
            vectors = recent.getAll(passages, (missing, executor) -> {
                        List<String> batch = List.copyOf(missing);
                        List<float[]> embedded = meter.passages(batch, () -> model.embed(asPassages(batch)));
                        Map<String, float[]> out = new HashMap<>();
                        for (int i = 0; i < batch.size(); i++) {
                            out.put(batch.get(i), embedded.get(i));
                        }
                        return CompletableFuture.completedFuture(out);
                    })
                    .join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
        List<float[]> out = new ArrayList<>(passages.size());
        for (String p : passages) {
            out.add(vectors.get(p));
        }
        return out;
    }

    private List<String> asPassages(List<String> passages) {
        return passagePrefix.isEmpty()
                ? passages
                : passages.stream().map(p -> passagePrefix + p).toList();
    }

    public int dimensions() {
        return model.dimensions();
    }
}
