package io.lorekeeper.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.ai.document.Document;
import org.springframework.ai.embedding.Embedding;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.ai.embedding.EmbeddingRequest;
import org.springframework.ai.embedding.EmbeddingResponse;

class SentenceMeanEmbeddingModelTest {

    /** Two-dimensional vectors chosen per sentence; records every text it was asked to embed. */
    static final class RecordingModel implements EmbeddingModel {
        final List<String> embedded = new ArrayList<>();

        @Override
        public EmbeddingResponse call(EmbeddingRequest request) {
            List<Embedding> out = new ArrayList<>();
            for (String text : request.getInstructions()) {
                embedded.add(text);
                out.add(new Embedding(vector(text), out.size()));
            }
            return new EmbeddingResponse(out);
        }

        static float[] vector(String text) {
            return text.startsWith("Pip") ? new float[] {1, 0} : new float[] {0, 1};
        }

        @Override
        public float[] embed(Document document) {
            return embed(document.getText());
        }

        @Override
        public int dimensions() {
            return 2;
        }
    }

    @Test
    void aPassageIsTheNormalisedMeanOfItsSentencesEachEmbeddedOnce() {
        RecordingModel real = new RecordingModel();
        SentenceMeanEmbeddingModel model = new SentenceMeanEmbeddingModel(real, 100);

        List<float[]> vectors = model.embed(
                List.of("Pip ran home. The marsh was cold.", "The marsh was cold. Pip ran home.", "Pip ran home."));

        float half = (float) Math.sqrt(0.5);
        assertThat(vectors.get(0)[0]).isCloseTo(half, within(1e-6f));
        assertThat(vectors.get(0)[1]).isCloseTo(half, within(1e-6f));
        assertThat(vectors.get(1)).containsExactly(vectors.get(0));
        assertThat(vectors.get(2)).containsExactly(1f, 0f);
        assertThat(real.embedded).containsExactly("Pip ran home.", "The marsh was cold.");

        model.embed(List.of("The marsh was cold. Pip ran home. Joe smiled."));
        assertThat(real.embedded).containsExactly("Pip ran home.", "The marsh was cold.", "Joe smiled.");
    }

    @Test
    void aQueryGoesToTheRealModelWhole() {
        RecordingModel real = new RecordingModel();
        SentenceMeanEmbeddingModel model = new SentenceMeanEmbeddingModel(real, 100);

        float[] query = model.embed("Pip? Who is his benefactor?");

        assertThat(query).containsExactly(1f, 0f);
        assertThat(real.embedded).containsExactly("Pip? Who is his benefactor?");
    }

    @Test
    void sentencesEvictedFromASmallCacheAreEmbeddedAgainNotLost() {
        RecordingModel real = new RecordingModel();
        SentenceMeanEmbeddingModel model = new SentenceMeanEmbeddingModel(real, 0);

        List<float[]> vectors = model.embed(List.of("Pip ran home. The marsh was cold.", "Pip ran home."));

        assertThat(vectors.get(1)).containsExactly(1f, 0f);
        assertThat(real.embedded).containsExactly("Pip ran home.", "The marsh was cold.");
    }

    @Test
    void theBenchmarkModeWrapsOnlyTheInProcessModel() throws Exception {
        SentenceMeanBenchmarkMode mode = new SentenceMeanBenchmarkMode(100);
        RecordingModel other = new RecordingModel();

        assertThat(mode.postProcessAfterInitialization(other, "other")).isSameAs(other);
        try (OnnxEmbeddingModel onnx = new OnnxEmbeddingModel(1)) {
            assertThat(mode.postProcessAfterInitialization(onnx, "embeddingModel"))
                    .isInstanceOf(SentenceMeanEmbeddingModel.class);
        }
    }
}
