package io.lorekeeper.memory;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.springframework.ai.document.Document;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.ai.embedding.EmbeddingRequest;
import org.springframework.ai.embedding.EmbeddingResponse;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

import io.lorekeeper.platform.RetryLaterException;

/**
 * The real ONNX embedding model, with a switch that makes it fail after a number of calls (stands
 * in for a crash in the middle of an ingestion job) and one that holds every call until released
 * (keeps a document INGESTING for as long as a test needs). Counts the texts it embedded.
 */
public class FaultInjectingEmbeddingModel implements EmbeddingModel {

    private final OnnxEmbeddingModel delegate = new OnnxEmbeddingModel(Runtime.getRuntime().availableProcessors());
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
        EmbeddingResponse response = delegate.call(request);
        textsEmbedded.addAndGet(request.getInstructions().size());
        return response;
    }

    @Override
    public float[] embed(Document document) {
        return embed(document.getText());
    }

    @Override
    public int dimensions() {
        return delegate.dimensions();
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
