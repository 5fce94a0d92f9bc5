package io.lorekeeper.retrieval;

import java.util.List;
import java.util.concurrent.Semaphore;

import io.lorekeeper.memory.OnnxPairModel;

/**
 * A cross-encoder run in-process: the query and each passage read together by a BERT-style model
 * exported to ONNX (ms-marco-MiniLM, bge-reranker and their kind), its relevance logit the score. A
 * model that answers two classes (not relevant, relevant) is scored by the second. At most {@code
 * concurrency} searches rerank at once: each uses a core for the whole of its candidates.
 */
final class OnnxReranker implements Reranker, AutoCloseable {

    private final OnnxPairModel model;
    private final int maxChars;
    private final Semaphore running;

    OnnxReranker(RerankSettings settings) {
        this.model = OnnxPairModel.inFolder(
                settings.modelLocation(), "lorekeeper.search.rerank.model-location", settings.maxTokens());
        this.maxChars = settings.maxChars();
        this.running = new Semaphore(Math.max(1, settings.concurrency()));
    }

    @Override
    public String name() {
        return "onnx " + model.name();
    }

    @Override
    public double[] scores(String query, List<String> passages) {
        List<String> cut = passages.stream()
                .map(p -> p.length() > maxChars ? p.substring(0, maxChars) : p)
                .toList();
        List<OnnxPairModel.Reading> readings;
        running.acquireUninterruptibly();
        try {
            readings = model.read(query, cut);
        } finally {
            running.release();
        }
        double[] scores = new double[readings.size()];
        for (int i = 0; i < scores.length; i++) {
            float[] logits = logits(readings.get(i));
            scores[i] = logits[logits.length - 1];
        }
        return scores;
    }

    /** The output named {@code logits}, as exports name it, or the model's only output. */
    private static float[] logits(OnnxPairModel.Reading reading) {
        if (reading.outputs().containsKey("logits") || reading.outputs().size() != 1) {
            return reading.output("logits");
        }
        return reading.outputs().values().iterator().next();
    }

    @Override
    public void close() {
        model.close();
    }
}
