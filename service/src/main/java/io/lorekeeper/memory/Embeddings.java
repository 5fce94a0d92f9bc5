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

    /** The model in use with the generation of the stored vectors it made; replaced when they change. */
    private record Active(EmbeddingModels.Choice choice, long generation) {}

    private volatile Active active;
    /** Completed but while a change switches the vectors: embedding then waits, so nothing mixes the two. */
    private volatile CompletableFuture<Void> open = CompletableFuture.completedFuture(null);
    /** Why this replica cannot embed at all: the database moved to a model it does not know. */
    private volatile String unavailable;

    private final EmbeddingSettings settings;
    /**
     * Asynchronous so that concurrent callers share an embedding in progress: 32 questions arriving
     * together on a fresh document each embedded the same few hundred sentences (p50 16.5 s against
     * 1.4 s warm); now the first caller embeds a sentence and the others wait for it. Keyed by the
     * generation as well, so that a vector of the previous model is never served after a change.
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

    private final EmbeddingMeter meter;

    /** Starts on the model the stored vectors were made with. */
    @Autowired
    Embeddings(
            EmbeddingSettings settings,
            StoredEmbeddingModel stored,
            io.micrometer.core.instrument.MeterRegistry registry) {
        this(stored.atStart(), stored.generationAtStart(), settings, new EmbeddingMeter(registry));
    }

    Embeddings(EmbeddingModel model, EmbeddingSettings settings) {
        this(
                new EmbeddingModels.Choice("test", model, settings.queryPrefix(), ""),
                1,
                settings,
                EmbeddingMeter.unregistered());
    }

    private Embeddings(
            EmbeddingModels.Choice choice, long generation, EmbeddingSettings settings, EmbeddingMeter meter) {
        this.meter = meter;
        this.active = new Active(choice, generation);
        this.settings = settings;
        this.queries = settings.queryCacheSize() > 0
                ? Caffeine.newBuilder().maximumSize(settings.queryCacheSize()).build()
                : null;
        this.queryThreads = Executors.newFixedThreadPool(
                settings.effectiveQueryThreads(),
                Thread.ofPlatform().name("embed-query-", 0).daemon().factory());
    }

    /** The name of the model in use and the generation of the vectors it made. */
    public String modelName() {
        return active.choice().name();
    }

    public long generation() {
        return active.generation();
    }

    /** A change is switching the stored vectors: embedding waits until {@link #use} or {@link #reopen}. */
    void hold() {
        if (open.isDone()) {
            open = new CompletableFuture<>();
        }
    }

    /** The switch did not happen (cancelled, or it found vectors missing): embed as before. */
    void reopen() {
        open.complete(null);
    }

    /** The stored vectors are now {@code choice}'s: embed with it from now on. */
    void use(EmbeddingModels.Choice choice, long generation) {
        active = new Active(choice, generation);
        unavailable = null;
        open.complete(null);
    }

    /** The stored vectors are a model's this replica does not know: refuse every embedding, saying why. */
    void refuse(String reason) {
        unavailable = reason;
        open.complete(null);
    }

    private Active ready() {
        try {
            open.get(settings.switchWait().toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("the stored vectors are being switched to another embedding model"
                    + " and the switch took longer than "
                    + settings.switchWait().toSeconds() + " s; try again");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the stored vectors were being switched", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
        String reason = unavailable;
        if (reason != null) {
            throw new IllegalStateException(reason);
        }
        return active;
    }

    @PreDestroy
    void close() {
        queryThreads.shutdownNow();
    }

    /** The query's vector; callers must not modify it (it is shared with later callers of the same query). */
    public float[] query(String query) {
        Active model = ready();
        return queries == null
                ? embedQuery(model, query)
                : queries.get(model.generation() + "\u0000" + query, key -> embedQuery(model, query));
    }

    private float[] embedQuery(Active model, String query) {
        String text = model.choice().queryPrefix() + query;
        EmbeddingModel embedder = model.choice().model();
        try {
            return CompletableFuture.supplyAsync(() -> meter.query(text, () -> embedder.embed(text)), queryThreads)
                    .join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
    }

    public List<float[]> passages(List<String> passages) {
        if (passages.isEmpty()) {
            return List.of();
        }
        Active model = ready();
        return meter.passages(passages, () -> model.choice().model().embed(asPassages(model, passages)));
    }

    /**
     * Passages embedded by the model a change moves the vectors to, for the change's job; no cache, no
     * wait (the job runs while the stored vectors are still the old model's).
     */
    static List<float[]> passages(EmbeddingModels.Choice model, List<String> passages) {
        return passages.isEmpty() ? List.of() : model.model().embed(prefixed(model.passagePrefix(), passages));
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
        Active model = ready();
        String generation = model.generation() + "\u0000";
        Map<String, float[]> vectors;
        try {
            // the passages no one has or is embedding are embedded here in one batch; the rest are waited for
            List<String> keys = passages.stream().map(p -> generation + p).toList();
            vectors = recent.getAll(keys, (missing, executor) -> {
                        List<String> batch = missing.stream()
                                .map(k -> k.substring(generation.length()))
                                .toList();
                        List<float[]> embedded = meter.passages(
                                batch, () -> model.choice().model().embed(asPassages(model, batch)));
                        Map<String, float[]> out = new HashMap<>();
                        for (int i = 0; i < batch.size(); i++) {
                            out.put(generation + batch.get(i), embedded.get(i));
                        }
                        return CompletableFuture.completedFuture(out);
                    })
                    .join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
        List<float[]> out = new ArrayList<>(passages.size());
        for (String p : passages) {
            out.add(vectors.get(generation + p));
        }
        return out;
    }

    private static List<String> asPassages(Active model, List<String> passages) {
        return prefixed(model.choice().passagePrefix(), passages);
    }

    private static List<String> prefixed(String prefix, List<String> passages) {
        return prefix.isEmpty()
                ? passages
                : passages.stream().map(p -> prefix + p).toList();
    }

    public int dimensions() {
        return active.choice().model().dimensions();
    }
}
