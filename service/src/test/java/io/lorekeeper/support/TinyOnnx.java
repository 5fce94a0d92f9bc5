package io.lorekeeper.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;

/**
 * Tiny ONNX models written by the test, for the model paths that read a user's ONNX folder (a
 * cross-encoder reranker, a SQuAD-style reader) where no real model of that kind can be fetched on
 * this machine. Each model is a lookup of one learned weight per word piece of the bundled bge
 * tokenizer's vocabulary, so a test knows exactly what the model prefers and can check that the
 * service does what the model says; the graphs take the inputs a BERT export takes ({@code
 * input_ids}, {@code attention_mask}, {@code token_type_ids}). The protobuf is written field by field:
 * the handful of ONNX messages needed do not justify a protobuf dependency.
 */
public final class TinyOnnx {

    private static final String TOKENIZER = "bge-small-en-v1.5-q-tokenizer.json";
    private static final int FLOAT = 1;
    private static final int INT64 = 7;
    private static final int VOCABULARY = 30_522;

    private TinyOnnx() {}

    /**
     * A cross-encoder: its one logit per (query, passage) pair is the sum of the weights of the
     * passage's word pieces (token type 1); every word not in {@code weights} weighs nothing.
     */
    public static byte[] crossEncoder(Map<String, Float> weights) {
        Graph graph = new Graph("tiny-cross-encoder")
                .bertInputs()
                .initializer("w", perPiece(weights), VOCABULARY, 1)
                .initializer("axis2", new long[] {2})
                .initializer("axis1", new long[] {1})
                .node("Gather", List.of("w", "input_ids"), List.of("g"), attribute("axis", 0))
                .node("Cast", List.of("token_type_ids"), List.of("t"), attribute("to", FLOAT))
                .node("Unsqueeze", List.of("t", "axis2"), List.of("t3"))
                .node("Mul", List.of("g", "t3"), List.of("m"))
                .node("ReduceSum", List.of("m", "axis1"), List.of("logits"), attribute("keepdims", 0))
                .output("logits", FLOAT, "batch", "1");
        return graph.bytes();
    }

    /**
     * A reader: start logit of a word piece = its weight in {@code start}, end logit = its weight in
     * {@code end}; the outputs are named as Hugging Face's question-answering exports name them.
     */
    public static byte[] reader(Map<String, Float> start, Map<String, Float> end) {
        Graph graph = new Graph("tiny-reader")
                .bertInputs()
                .initializer("s", perPiece(start), VOCABULARY)
                .initializer("e", perPiece(end), VOCABULARY)
                .node("Gather", List.of("s", "input_ids"), List.of("start_logits"), attribute("axis", 0))
                .node("Gather", List.of("e", "input_ids"), List.of("end_logits"), attribute("axis", 0))
                .output("start_logits", FLOAT, "batch", "sequence")
                .output("end_logits", FLOAT, "batch", "sequence");
        return graph.bytes();
    }

    /** Writes {@code model} and the bge tokenizer into {@code folder}, as an exported model is laid out. */
    public static Path folder(Path folder, byte[] model) {
        try {
            Files.createDirectories(folder);
            Files.write(folder.resolve("model.onnx"), model);
            try (InputStream tokenizer = TinyOnnx.class.getClassLoader().getResourceAsStream(TOKENIZER)) {
                Files.write(folder.resolve("tokenizer.json"), tokenizer.readAllBytes());
            }
            return folder;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One weight per vocabulary entry: each word of {@code weights} as the tokenizer splits it. */
    private static float[] perPiece(Map<String, Float> weights) {
        float[] table = new float[VOCABULARY];
        try (InputStream in = TinyOnnx.class.getClassLoader().getResourceAsStream(TOKENIZER);
                HuggingFaceTokenizer tokenizer = HuggingFaceTokenizer.newInstance(
                        in, Map.of("addSpecialTokens", "false", "modelMaxLength", "512"))) {
            weights.forEach((word, weight) -> {
                for (long id : tokenizer.encode(word).getIds()) {
                    table[(int) id] = weight;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return table;
    }

    private static byte[] attribute(String name, long value) {
        return new Proto().string(1, name).varint(3, value).varint(20, 2).bytes();
    }

    /** The ONNX messages of one graph: nodes, initializers, inputs and outputs, at opset 13. */
    private static final class Graph {
        private final String name;
        private final List<byte[]> nodes = new ArrayList<>();
        private final List<byte[]> initializers = new ArrayList<>();
        private final List<byte[]> inputs = new ArrayList<>();
        private final List<byte[]> outputs = new ArrayList<>();

        Graph(String name) {
            this.name = name;
        }

        Graph bertInputs() {
            for (String input : List.of("input_ids", "attention_mask", "token_type_ids")) {
                inputs.add(valueInfo(input, INT64, "batch", "sequence"));
            }
            return this;
        }

        Graph initializer(String tensor, float[] values, long... dims) {
            ByteBuffer raw = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
            for (float v : values) {
                raw.putFloat(v);
            }
            initializers.add(tensor(tensor, FLOAT, raw.array(), dims));
            return this;
        }

        Graph initializer(String tensor, long[] values) {
            ByteBuffer raw = ByteBuffer.allocate(values.length * 8).order(ByteOrder.LITTLE_ENDIAN);
            for (long v : values) {
                raw.putLong(v);
            }
            initializers.add(tensor(tensor, INT64, raw.array(), values.length));
            return this;
        }

        Graph node(String op, List<String> in, List<String> out, byte[]... attributes) {
            Proto node = new Proto();
            in.forEach(i -> node.string(1, i));
            out.forEach(o -> node.string(2, o));
            node.string(3, op + "_" + nodes.size()).string(4, op);
            for (byte[] attribute : attributes) {
                node.message(5, attribute);
            }
            nodes.add(node.bytes());
            return this;
        }

        Graph output(String output, int type, String... dims) {
            outputs.add(valueInfo(output, type, dims));
            return this;
        }

        byte[] bytes() {
            Proto graph = new Proto();
            nodes.forEach(n -> graph.message(1, n));
            graph.string(2, name);
            initializers.forEach(t -> graph.message(5, t));
            inputs.forEach(i -> graph.message(11, i));
            outputs.forEach(o -> graph.message(12, o));
            byte[] opset = new Proto().string(1, "").varint(2, 13).bytes();
            return new Proto()
                    .varint(1, 7) // IR version 7 goes with opset 13
                    .string(2, "lorekeeper-tests")
                    .message(7, graph.bytes())
                    .message(8, opset)
                    .bytes();
        }

        private static byte[] tensor(String name, int type, byte[] raw, long... dims) {
            Proto tensor = new Proto();
            for (long d : dims) {
                tensor.varint(1, d);
            }
            return tensor.varint(2, type).string(8, name).message(9, raw).bytes();
        }

        /** A tensor's name, element type and shape; a dimension that is a number is fixed, else named. */
        private static byte[] valueInfo(String name, int type, String... dims) {
            Proto shape = new Proto();
            for (String d : dims) {
                Proto dim = d.chars().allMatch(Character::isDigit)
                        ? new Proto().varint(1, Long.parseLong(d))
                        : new Proto().string(2, d);
                shape.message(1, dim.bytes());
            }
            byte[] tensorType =
                    new Proto().varint(1, type).message(2, shape.bytes()).bytes();
            byte[] typeProto = new Proto().message(1, tensorType).bytes();
            return new Proto().string(1, name).message(2, typeProto).bytes();
        }
    }

    /** Protobuf's wire format: varints and length-delimited fields, all these messages need. */
    private static final class Proto {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Proto varint(int field, long value) {
            raw((long) field << 3);
            raw(value);
            return this;
        }

        Proto string(int field, String value) {
            return message(field, value.getBytes(StandardCharsets.UTF_8));
        }

        Proto message(int field, byte[] value) {
            raw(((long) field << 3) | 2);
            raw(value.length);
            out.writeBytes(value);
            return this;
        }

        private void raw(long value) {
            while ((value & ~0x7FL) != 0) {
                out.write((int) ((value & 0x7F) | 0x80));
                value >>>= 7;
            }
            out.write((int) value);
        }

        byte[] bytes() {
            return out.toByteArray();
        }
    }
}
