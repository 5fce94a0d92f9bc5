package io.lorekeeper.memory;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.springframework.ai.document.Document;
import org.springframework.ai.embedding.Embedding;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.ai.embedding.EmbeddingRequest;
import org.springframework.ai.embedding.EmbeddingResponse;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.onnx.AbstractInProcessEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.OnnxBertBiEncoder;
import dev.langchain4j.model.embedding.onnx.PoolingMode;

/**
 * A sentence-embedding model running in-process on ONNX Runtime, behind Spring AI's
 * {@link EmbeddingModel}: by default the bundled bge-small-en-v1.5 (quantized, 384 dimensions, CLS
 * pooling), whose model and tokenizer ship inside the LangChain4j jar so that this works with no
 * network; or any BERT-style model from a folder or the class path ({@link ModelFiles}) with its
 * pooling. Vectors are normalised to unit length.
 *
 * <p>ONNX Runtime's own intra-op threads fight with concurrent callers on small machines, so the
 * session gets one intra-op thread and texts are spread over a pool of {@code threads} callers
 * instead (measured by the ingestion benchmark).
 */
class OnnxEmbeddingModel implements EmbeddingModel, AutoCloseable {

    static final int DIMENSIONS = 384;
    /**
     * The most characters of one text the tokenizer is given. The model sees 510 word pieces, which
     * natural text spends in a few thousand characters; what a hostile upload can put in one chunk
     * (a million characters without a word break) made the native tokenizer abort the whole JVM.
     */
    static final int MAX_CHARS = 32_768;

    private final OrtSession session;
    private final ExecutorService pool;
    private final AbstractInProcessEmbeddingModel model;
    private final String name;
    private final int dimensions;

    /** The bundled bge-small-en-v1.5. */
    OnnxEmbeddingModel(int threads) {
        this(ModelFiles.resolve("", ""), PoolingMode.CLS, threads);
    }

    OnnxEmbeddingModel(ModelFiles files, PoolingMode pooling, int threads) {
        try {
            OrtEnvironment environment = OrtEnvironment.getEnvironment();
            OrtSession.SessionOptions options = new OrtSession.SessionOptions();
            options.setIntraOpNumThreads(1);
            options.setInterOpNumThreads(1);
            try (InputStream model = files.model().get()) {
                this.session = environment.createSession(model.readAllBytes(), options);
            }
            OnnxBertBiEncoder encoder;
            try (InputStream tokenizer = files.tokenizer().get()) {
                encoder = new OnnxBertBiEncoder(environment, session, tokenizer, pooling);
            }
            this.pool = Executors.newFixedThreadPool(
                    threads, Thread.ofPlatform().name("embed-", 0).daemon().factory());
            this.name = files.name();
            this.model = new AbstractInProcessEmbeddingModel(pool) {
                @Override
                protected OnnxBertBiEncoder model() {
                    return encoder;
                }
            };
            // what the model makes, rather than what a constant says it should
            this.dimensions = model.embed("dimension probe").content().vector().length;
        } catch (OrtException e) {
            throw new IllegalStateException("cannot load the embedding model " + files.name(), e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The model's name, as the stored vectors record it. */
    String name() {
        return name;
    }

    @Override
    public EmbeddingResponse call(EmbeddingRequest request) {
        List<String> texts = request.getInstructions();
        if (texts.isEmpty()) {
            return new EmbeddingResponse(List.of());
        }
        List<TextSegment> segments = texts.stream()
                .map(OnnxEmbeddingModel::bounded)
                .map(TextSegment::from)
                .toList();
        List<dev.langchain4j.data.embedding.Embedding> vectors =
                model.embedAll(segments).content();
        List<Embedding> embeddings = new ArrayList<>(vectors.size());
        for (int i = 0; i < vectors.size(); i++) {
            embeddings.add(new Embedding(vectors.get(i).vector(), i));
        }
        return new EmbeddingResponse(embeddings);
    }

    static String bounded(String text) {
        if (text.length() <= MAX_CHARS) {
            return text;
        }
        int end = Character.isHighSurrogate(text.charAt(MAX_CHARS - 1)) ? MAX_CHARS - 1 : MAX_CHARS;
        return text.substring(0, end);
    }

    @Override
    public float[] embed(Document document) {
        return embed(document.getText());
    }

    @Override
    public int dimensions() {
        return dimensions;
    }

    @Override
    public void close() throws OrtException {
        pool.shutdownNow();
        session.close();
    }
}
