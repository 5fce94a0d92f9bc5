package io.lorekeeper.memory;

import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.ai.document.Document;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.ai.embedding.EmbeddingRequest;
import org.springframework.ai.embedding.EmbeddingResponse;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/**
 * The real ONNX embedding model, with a switch that makes it fail after a number of calls: stands
 * in for a crash in the middle of an ingestion job. Counts the texts it embedded.
 */
public class FaultInjectingEmbeddingModel implements EmbeddingModel {

    private final OnnxEmbeddingModel delegate = new OnnxEmbeddingModel(Runtime.getRuntime().availableProcessors());
    private final AtomicInteger callsBeforeFailure = new AtomicInteger(-1);
    private final AtomicInteger textsEmbedded = new AtomicInteger();

    /** The next {@code calls} calls succeed, every later one throws, until {@link #heal()}. */
    public void failAfter(int calls) {
        callsBeforeFailure.set(calls);
    }

    public void heal() {
        callsBeforeFailure.set(-1);
    }

    public int textsEmbedded() {
        return textsEmbedded.get();
    }

    @Override
    public EmbeddingResponse call(EmbeddingRequest request) {
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
