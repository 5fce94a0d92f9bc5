package io.lorekeeper.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import ai.djl.huggingface.tokenizers.jni.CharSpan;
import io.lorekeeper.support.TinyOnnx;

class OnnxPairModelTest {

    @TempDir
    Path dir;

    @Test
    void aCrossEncoderScoresEachPairByWhatTheModelWeighs() {
        Path folder = TinyOnnx.folder(dir.resolve("ce"), TinyOnnx.crossEncoder(Map.of("house", 2f, "garden", 1f)));
        try (OnnxPairModel model = OnnxPairModel.inFolder(folder.toString(), "test.location", 512)) {
            List<OnnxPairModel.Reading> readings = model.read(
                    "house house house", // the query's pieces weigh nothing: token type 0
                    List.of("a quiet street", "the garden behind the house", "a house, a house and a garden"));
            assertThat(readings).hasSize(3);
            assertThat(readings.stream().map(r -> r.output("logits")[0]).toList())
                    .containsExactly(0f, 3f, 5f);
            assertThat(model.name()).isEqualTo("ce");
        }
    }

    @Test
    void aReaderGivesLogitsPerPieceWithTheSecondTextsCharacterSpans() {
        Path folder = TinyOnnx.folder(dir.resolve("reader"), TinyOnnx.reader(Map.of("satis", 5f), Map.of("house", 5f)));
        try (OnnxPairModel model = OnnxPairModel.inFolder(folder.toString(), "test.location", 512)) {
            String passage = "She lived at Satis House with Estella.";
            OnnxPairModel.Reading reading =
                    model.read("Where did she live?", List.of(passage)).getFirst();
            float[] start = reading.output("start_logits");
            float[] end = reading.output("end_logits");
            CharSpan[] spans = reading.secondSpans();
            assertThat(start).hasSameSizeAs(spans);
            int s = argmax(start);
            int e = argmax(end);
            assertThat(passage.substring(spans[s].getStart(), spans[e].getEnd()))
                    .isEqualTo("Satis House");
            // the question's pieces and the special tokens have no span in the passage
            assertThat(spans[0]).isNull();
        }
    }

    @Test
    void aLongPassageIsCutToTheWindowAndTheQuestionKept() {
        Path folder = TinyOnnx.folder(dir.resolve("ce"), TinyOnnx.crossEncoder(Map.of("house", 1f)));
        try (OnnxPairModel model = OnnxPairModel.inFolder(folder.toString(), "test.location", 32)) {
            String passage = "house ".repeat(200);
            OnnxPairModel.Reading reading =
                    model.read("which house", List.of(passage)).getFirst();
            // 32 pieces: [CLS] which house [SEP] ... [SEP] leaves 27 for the passage
            assertThat(reading.output("logits")[0]).isEqualTo(27f);
        }
    }

    @Test
    void aFolderWithoutAModelIsRefusedNamingTheSetting() {
        assertThatThrownBy(() -> OnnxPairModel.inFolder(dir.toString(), "lorekeeper.search.rerank.model-location", 512))
                .hasMessageContaining("lorekeeper.search.rerank.model-location")
                .hasMessageContaining(".onnx");
    }

    private static int argmax(float[] values) {
        int best = 0;
        for (int i = 1; i < values.length; i++) {
            if (values[i] > values[best]) {
                best = i;
            }
        }
        return best;
    }
}
