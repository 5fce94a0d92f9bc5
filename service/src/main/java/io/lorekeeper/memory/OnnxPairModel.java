package io.lorekeeper.memory;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.djl.huggingface.tokenizers.jni.CharSpan;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OnnxValue;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;

/**
 * A BERT-style ONNX model that reads two texts together, in-process: the form of a cross-encoder
 * reranker (query, passage → relevance logit) and of an extractive reader (question, passage → start
 * and end logits per word piece). Loaded from a folder laid out as exports are ({@link ModelFiles}:
 * one {@code .onnx} and a {@code tokenizer.json}). The second text is cut to fit the window, never the
 * first; inputs are fed by the names the model declares ({@code token_type_ids} only where it takes
 * them), pairs in padded batches.
 */
public final class OnnxPairModel implements AutoCloseable {

    /** Pairs per run: padding costs what the longest pair costs, and memory grows with the batch. */
    private static final int BATCH = 8;

    private final String name;
    private final OrtEnvironment environment;
    private final OrtSession session;
    private final HuggingFaceTokenizer tokenizer;

    private OnnxPairModel(ModelFiles files, int maxTokens) {
        this.name = files.name();
        try {
            this.environment = OrtEnvironment.getEnvironment();
            OrtSession.SessionOptions options = new OrtSession.SessionOptions();
            options.setIntraOpNumThreads(1);
            try (InputStream model = files.model().get()) {
                this.session = environment.createSession(model.readAllBytes(), options);
            }
            try (InputStream json = files.tokenizer().get()) {
                this.tokenizer = HuggingFaceTokenizer.newInstance(
                        json,
                        Map.of(
                                "maxLength",
                                Integer.toString(maxTokens),
                                "modelMaxLength",
                                Integer.toString(maxTokens),
                                "truncation",
                                "only_second",
                                "padding",
                                "false"));
            }
        } catch (OrtException e) {
            throw new IllegalStateException("cannot load the ONNX model " + files.name() + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The model in {@code folder}; {@code property} names the setting, for the message when it is not one. */
    public static OnnxPairModel inFolder(String folder, String property, int maxTokens) {
        return new OnnxPairModel(ModelFiles.inFolder(folder, property), maxTokens);
    }

    public String name() {
        return name;
    }

    /**
     * One pair's reading: each output the model gives, for this pair only (a per-piece output cut to the
     * pair's own pieces), and where each piece of the second text lies in it ({@code null} for pieces of
     * the first text and special tokens).
     */
    public record Reading(Map<String, float[]> outputs, CharSpan[] secondSpans) {

        public float[] output(String name) {
            float[] values = outputs.get(name);
            if (values == null) {
                throw new IllegalStateException("the model gives no output named " + name + ": " + outputs.keySet());
            }
            return values;
        }
    }

    /** Reads {@code first} with each of {@code seconds}: one reading per second text, in order. */
    public List<Reading> read(String first, List<String> seconds) {
        List<Reading> readings = new ArrayList<>(seconds.size());
        for (int from = 0; from < seconds.size(); from += BATCH) {
            List<Encoding> batch = new ArrayList<>();
            for (String second : seconds.subList(from, Math.min(seconds.size(), from + BATCH))) {
                batch.add(tokenizer.encode(first, second));
            }
            readings.addAll(run(batch));
        }
        return readings;
    }

    private List<Reading> run(List<Encoding> batch) {
        int width = batch.stream().mapToInt(e -> e.getIds().length).max().orElse(0);
        Map<String, long[]> columns = Map.of(
                "input_ids", padded(batch, width, Encoding::getIds),
                "attention_mask", padded(batch, width, Encoding::getAttentionMask),
                "token_type_ids", padded(batch, width, Encoding::getTypeIds));
        Map<String, OnnxTensor> inputs = new HashMap<>();
        try {
            for (String input : session.getInputNames()) {
                long[] column = columns.get(input);
                if (column == null) {
                    throw new IllegalStateException("model " + name + " asks for an input this service does not give: "
                            + input + " (it gives " + columns.keySet() + ")");
                }
                inputs.put(input, OnnxTensor.createTensor(environment, LongBuffer.wrap(column), new long[] {
                    batch.size(), width
                }));
            }
            try (OrtSession.Result result = session.run(inputs)) {
                return readings(batch, result);
            }
        } catch (OrtException e) {
            throw new IllegalStateException("model " + name + " failed: " + e.getMessage(), e);
        } finally {
            inputs.values().forEach(OnnxTensor::close);
        }
    }

    private static List<Reading> readings(List<Encoding> batch, OrtSession.Result result) throws OrtException {
        List<Map<String, float[]>> outputs = new ArrayList<>();
        batch.forEach(b -> outputs.add(new HashMap<>()));
        for (Map.Entry<String, OnnxValue> output : result) {
            if (!(output.getValue().getValue() instanceof float[][] rows)) {
                continue; // only [batch, n] float outputs are readings; others (hidden states) are not used
            }
            for (int i = 0; i < batch.size(); i++) {
                float[] row = rows[i];
                int own = batch.get(i).getIds().length;
                outputs.get(i).put(output.getKey(), row.length > own ? java.util.Arrays.copyOf(row, own) : row);
            }
        }
        List<Reading> readings = new ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            readings.add(new Reading(outputs.get(i), secondSpans(batch.get(i))));
        }
        return readings;
    }

    /** The character spans of the second text's pieces; the first text's and special tokens' are null. */
    private static CharSpan[] secondSpans(Encoding encoding) {
        CharSpan[] spans = encoding.getCharTokenSpans().clone();
        long[] sequence = encoding.getSequenceIds();
        long[] special = encoding.getSpecialTokenMask();
        for (int i = 0; i < spans.length; i++) {
            if (sequence[i] != 1 || special[i] == 1) {
                spans[i] = null;
            }
        }
        return spans;
    }

    private static long[] padded(
            List<Encoding> batch, int width, java.util.function.Function<Encoding, long[]> column) {
        long[] values = new long[batch.size() * width];
        for (int i = 0; i < batch.size(); i++) {
            long[] row = column.apply(batch.get(i));
            System.arraycopy(row, 0, values, i * width, row.length);
        }
        return values;
    }

    @Override
    public void close() {
        tokenizer.close();
        try {
            session.close();
        } catch (OrtException e) {
            throw new IllegalStateException(e);
        }
    }
}
