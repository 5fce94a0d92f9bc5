package io.lorekeeper.memory;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Timer;

/**
 * The embedding model's throughput: texts and characters embedded and the time the model took, by kind
 * ({@code passage} at ingestion and for sentence scoring, {@code query} at search). Texts per second is
 * {@code rate(lorekeeper_embedding_texts_total[5m])}; cached queries and passages are not counted.
 */
final class EmbeddingMeter {

    static final String TEXTS = "lorekeeper.embedding.texts";
    static final String CHARACTERS = "lorekeeper.embedding.characters";
    static final String TIME = "lorekeeper.embedding";

    private final MeterRegistry registry;

    EmbeddingMeter(MeterRegistry registry) {
        this.registry = registry;
    }

    /** For a test that builds {@link Embeddings} by hand: the global registry, which nothing reads. */
    static EmbeddingMeter unregistered() {
        return new EmbeddingMeter(Metrics.globalRegistry);
    }

    float[] query(String text, Supplier<float[]> embed) {
        return timed("query", List.of(text), embed);
    }

    List<float[]> passages(List<String> texts, Supplier<List<float[]>> embed) {
        return timed("passage", texts, embed);
    }

    private <T> T timed(String kind, List<String> texts, Supplier<T> embed) {
        long started = System.nanoTime();
        T vectors = embed.get();
        Timer.builder(TIME)
                .description("time the embedding model took, per call (a batch of passages or one query)")
                .tag("kind", kind)
                .register(registry)
                .record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
        Counter.builder(TEXTS)
                .description("texts embedded by the model")
                .tag("kind", kind)
                .register(registry)
                .increment(texts.size());
        Counter.builder(CHARACTERS)
                .description("characters of the texts embedded by the model")
                .tag("kind", kind)
                .register(registry)
                .increment(texts.stream().mapToLong(String::length).sum());
        return vectors;
    }
}
