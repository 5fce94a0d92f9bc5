package io.lorekeeper.memory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.springframework.ai.document.Document;
import org.springframework.ai.embedding.Embedding;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.ai.embedding.EmbeddingRequest;
import org.springframework.ai.embedding.EmbeddingResponse;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import io.lorekeeper.platform.RetryLaterException;

/**
 * The real ONNX embedding model, with a switch that makes it fail after a number of calls (stands
 * in for a crash in the middle of an ingestion job) and one that holds every call until released
 * (keeps a document INGESTING for as long as a test needs). Counts the texts it embedded.
 *
 * <p>One model per test JVM, shared by every application context, and it remembers the vectors it
 * computed: many test classes ingest the same texts (the LoCoMo conversation, the chronicles of the
 * ComoRAG tests, the same page headers in front of them), the model is deterministic, and embedding
 * was the largest share of the suite's CPU time. The switches and the count act on every call as
 * before; a remembered text only skips the model's arithmetic.
 */
public class FaultInjectingEmbeddingModel implements EmbeddingModel {

    /** About 60 MB of vectors at most (384 floats each, plus the texts). */
    private static final int REMEMBERED_TEXTS = 30_000;

    private static final OnnxEmbeddingModel MODEL =
            new OnnxEmbeddingModel(Runtime.getRuntime().availableProcessors());
    private static final Cache<String, float[]> VECTORS =
            Caffeine.newBuilder().maximumSize(REMEMBERED_TEXTS).build();

    private final AtomicInteger callsBeforeFailure = new AtomicInteger(-1);
    private final AtomicInteger textsEmbedded = new AtomicInteger();
    private final AtomicInteger held = new AtomicInteger();
    private volatile CountDownLatch gate;
    private final AtomicReference<Duration> retryLater = new AtomicReference<>();

    /** The next {@code calls} calls succeed, every later one throws, until {@link #heal()}. */
    public void failAfter(int calls) {
        callsBeforeFailure.set(calls);
    }

    public void heal() {
        callsBeforeFailure.set(-1);
        retryLater.set(null);
        release();
    }

    /**
     * The next call is refused as a rate-limited remote endpoint would refuse it: with a
     * {@link RetryLaterException} asking to come back after {@code after}.
     */
    public void retryLaterOnce(Duration after) {
        retryLater.set(after);
    }

    /** Every later call waits (at most a minute) until {@link #release()}. */
    public void hold() {
        gate = new CountDownLatch(1);
    }

    public void release() {
        CountDownLatch open = gate;
        gate = null;
        if (open != null) {
            open.countDown();
        }
    }

    /** How many calls are waiting in {@link #hold()} now. */
    public int held() {
        return held.get();
    }

    public int textsEmbedded() {
        return textsEmbedded.get();
    }

    @Override
    public EmbeddingResponse call(EmbeddingRequest request) {
        CountDownLatch closed = gate;
        if (closed != null) {
            held.incrementAndGet();
            try {
                closed.await(1, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while held", e);
            } finally {
                held.decrementAndGet();
            }
        }
        Duration later = retryLater.getAndSet(null);
        if (later != null) {
            throw new RetryLaterException("the embedding endpoint asked to wait " + later.toSeconds() + " s", later);
        }
        if (callsBeforeFailure.get() == 0) {
            throw new IllegalStateException("injected embedding failure");
        }
        callsBeforeFailure.updateAndGet(n -> n > 0 ? n - 1 : n);
        EmbeddingResponse response = remembered(request);
        textsEmbedded.addAndGet(request.getInstructions().size());
        return response;
    }

    /** The model's response for the request's texts, computing only those it has not seen. */
    private static EmbeddingResponse remembered(EmbeddingRequest request) {
        List<String> texts = request.getInstructions();
        float[][] vectors = new float[texts.size()][];
        List<String> unseen = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            vectors[i] = VECTORS.getIfPresent(texts.get(i));
            if (vectors[i] == null) {
                unseen.add(texts.get(i));
            }
        }
        if (!unseen.isEmpty()) {
            List<String> distinct = unseen.stream().distinct().toList();
            List<Embedding> computed = MODEL.call(new EmbeddingRequest(distinct, request.getOptions()))
                    .getResults();
            Map<String, float[]> byText = new HashMap<>();
            for (int i = 0; i < distinct.size(); i++) {
                byText.put(distinct.get(i), computed.get(i).getOutput());
                VECTORS.put(distinct.get(i), computed.get(i).getOutput().clone());
            }
            for (int i = 0; i < texts.size(); i++) {
                if (vectors[i] == null) {
                    vectors[i] = byText.get(texts.get(i));
                }
            }
        }
        List<Embedding> results = new ArrayList<>(texts.size());
        for (int i = 0; i < texts.size(); i++) {
            // a copy: callers own the arrays they get, the remembered ones stay as computed
            results.add(new Embedding(vectors[i].clone(), i));
        }
        return new EmbeddingResponse(results);
    }

    @Override
    public float[] embed(Document document) {
        return embed(document.getText());
    }

    @Override
    public int dimensions() {
        return MODEL.dimensions();
    }

    @TestConfiguration(proxyBeanMethods = false)
    public static class Config {
        @Bean
        @Primary
        FaultInjectingEmbeddingModel faultInjectingEmbeddingModel() {
            return new FaultInjectingEmbeddingModel();
        }
    }
}
