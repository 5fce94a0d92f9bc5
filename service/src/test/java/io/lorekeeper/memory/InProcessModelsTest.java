package io.lorekeeper.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.embedding.EmbeddingRequest;

import dev.langchain4j.model.embedding.onnx.PoolingMode;

/**
 * Sentence-embedding models loaded the generic way: from a folder laid out as ONNX exports are, and
 * from the class path as the langchain4j model jars carry them (e5-small-v2 and all-MiniLM-L6-v2 are
 * on the test class path for this).
 */
class InProcessModelsTest {

    private static final List<String> TEXTS =
            List.of("The keeper rang the fog bell at dusk.", "Satis House had more than one name.");

    @Test
    void aModelInAFolderMakesTheSameVectorsAsTheBundledOne(@TempDir Path folder) throws Exception {
        copy("bge-small-en-v1.5-q.onnx", folder.resolve("model.onnx"));
        copy("bge-small-en-v1.5-q-tokenizer.json", folder.resolve("tokenizer.json"));

        ModelFiles files = ModelFiles.resolve(folder.toString(), "");
        try (OnnxEmbeddingModel fromFolder = new OnnxEmbeddingModel(files, PoolingMode.CLS, 1);
                OnnxEmbeddingModel bundled = new OnnxEmbeddingModel(1)) {
            assertThat(fromFolder.name()).isEqualTo(folder.getFileName().toString());
            assertThat(bundled.name()).isEqualTo("bge-small-en-v1.5");
            List<float[]> a = vectors(fromFolder);
            List<float[]> b = vectors(bundled);
            for (int i = 0; i < TEXTS.size(); i++) {
                assertThat(a.get(i)).containsExactly(b.get(i));
            }
        }
    }

    @Test
    void e5AndMiniLmLoadFromTheClassPathWithMeanPooling() throws Exception {
        for (String base : List.of("e5-small-v2-q", "all-minilm-l6-v2-q")) {
            ModelFiles files = ModelFiles.resolve("classpath:" + base, "");
            try (OnnxEmbeddingModel model = new OnnxEmbeddingModel(files, PoolingMode.MEAN, 1);
                    OnnxEmbeddingModel bge = new OnnxEmbeddingModel(1)) {
                assertThat(model.name()).isEqualTo(base);
                assertThat(model.dimensions()).isEqualTo(384);
                float[] vector = vectors(model).getFirst();
                assertThat(norm(vector)).as(base).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-3));
                assertThat(vector)
                        .as("%s is not bge", base)
                        .isNotEqualTo(vectors(bge).getFirst());
            }
        }
    }

    @Test
    void aFolderMustHoldOneModelAndATokenizer(@TempDir Path folder) throws Exception {
        assertThatThrownBy(() -> ModelFiles.resolve(folder.toString(), ""))
                .hasMessageContaining("exactly one an .onnx model file, found 0");
        Files.writeString(folder.resolve("a.onnx"), "x");
        Files.writeString(folder.resolve("b.onnx"), "x");
        assertThatThrownBy(() -> ModelFiles.resolve(folder.toString(), "")).hasMessageContaining("found 2");
        assertThatThrownBy(() -> ModelFiles.resolve(folder.resolve("missing").toString(), ""))
                .hasMessageContaining("is not a folder");
        assertThat(ModelFiles.resolve("", "my-bge").name()).isEqualTo("my-bge");
    }

    private static List<float[]> vectors(OnnxEmbeddingModel model) {
        return model.call(new EmbeddingRequest(TEXTS, null)).getResults().stream()
                .map(e -> e.getOutput())
                .toList();
    }

    private static double norm(float[] v) {
        double sum = 0;
        for (float x : v) {
            sum += x * x;
        }
        return Math.sqrt(sum);
    }

    private static void copy(String resource, Path target) throws Exception {
        try (InputStream in = InProcessModelsTest.class.getClassLoader().getResourceAsStream(resource)) {
            Files.copy(in, target);
        }
    }
}
