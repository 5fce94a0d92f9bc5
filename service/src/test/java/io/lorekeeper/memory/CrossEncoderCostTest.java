package io.lorekeeper.memory;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

import io.lorekeeper.support.SharedData;

/**
 * What an in-process cross-encoder costs a search: the time to read a question with 30 candidate
 * passages of about 256 word pieces (the reranking stage's default), on this machine's cores. No
 * cross-encoder can be fetched here, so the models timed are the bundled encoders of the same shapes:
 * all-MiniLM-L6-v2 (6 layers, 384 wide, as ms-marco-MiniLM-L-6-v2) and bge-small-en-v1.5 (12 layers,
 * 384 wide), both int8-quantized as shipped; a reranker's classification head costs nothing beside
 * them. Passages are cut from Great Expectations. Run with {@code -Dlorekeeper.measure.rerank=true}.
 */
@EnabledIfSystemProperty(
        named = "lorekeeper.measure.rerank",
        matches = "true",
        disabledReason = "opt-in measurement: run with -Dlorekeeper.measure.rerank=true (needs ../shared/data/novels)")
class CrossEncoderCostTest {

    private static final int CANDIDATES = 30;
    private static final int SEARCHES = 20;

    @Test
    void readingThirtyCandidates(@TempDir Path dir) throws Exception {
        String novel = Files.readString(SharedData.require("novels/great_expectations_pg1400.txt"));
        List<String> passages = new ArrayList<>();
        for (int at = 50_000; passages.size() < CANDIDATES * SEARCHES; at += 1_100) {
            passages.add(novel.substring(at, at + 1_100));
        }
        for (String base : List.of("all-minilm-l6-v2-q", "bge-small-en-v1.5-q")) {
            Path folder = Files.createDirectories(dir.resolve(base));
            copy(base + ".onnx", folder.resolve("model.onnx"));
            copy(base + "-tokenizer.json", folder.resolve("tokenizer.json"));
            try (OnnxPairModel model = OnnxPairModel.inFolder(folder.toString(), "measure", 512)) {
                model.read("warm up", passages.subList(0, 8));
                double[] millis = new double[SEARCHES];
                for (int s = 0; s < SEARCHES; s++) {
                    long started = System.nanoTime();
                    model.read("Who paid for Pip's education?", passages.subList(s * CANDIDATES, (s + 1) * CANDIDATES));
                    millis[s] = (System.nanoTime() - started) / 1e6;
                }
                Arrays.sort(millis);
                System.out.printf(
                        "cross-encoder cost, %s, %d candidates of ~256 pieces: p50 %.0f ms, p95 %.0f ms, max %.0f ms%n",
                        base, CANDIDATES, millis[SEARCHES / 2], millis[(int) (SEARCHES * 0.95)], millis[SEARCHES - 1]);
            }
        }
    }

    private static void copy(String resource, Path to) throws Exception {
        try (InputStream in = CrossEncoderCostTest.class.getClassLoader().getResourceAsStream(resource)) {
            Files.write(to, in.readAllBytes());
        }
    }
}
