package io.lorekeeper.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.ai.embedding.EmbeddingRequest;

/** What a hostile upload can put into one chunk reaches the native tokenizer only up to a bound. */
class OnnxEmbeddingBoundsTest {

    @Test
    void aTextOfMillionsOfCharactersIsEmbeddedAsItsBoundedPrefix() throws Exception {
        String unbroken = "A".repeat(2_000_000);
        String ideographs = "\u6f22".repeat(1_000_000);
        String prose = "The keeper rang the fog bell at dusk. ".repeat(30_000);

        try (OnnxEmbeddingModel model = new OnnxEmbeddingModel(1)) {
            List<float[]> whole = vectors(model, List.of(unbroken, ideographs, prose));
            List<float[]> prefixes = vectors(
                    model,
                    List.of(
                            unbroken.substring(0, OnnxEmbeddingModel.MAX_CHARS),
                            ideographs.substring(0, OnnxEmbeddingModel.MAX_CHARS),
                            prose.substring(0, OnnxEmbeddingModel.MAX_CHARS)));
            for (int i = 0; i < whole.size(); i++) {
                assertThat(whole.get(i)).as("text %d", i).containsExactly(prefixes.get(i));
            }
        }
    }

    @Test
    void theBoundNeverSplitsASurrogatePair() {
        String text = "a".repeat(OnnxEmbeddingModel.MAX_CHARS - 1) + "\uD83D\uDE00" + "b".repeat(10);

        assertThat(OnnxEmbeddingModel.bounded(text)).hasSize(OnnxEmbeddingModel.MAX_CHARS - 1);
        assertThat(OnnxEmbeddingModel.bounded("short")).isEqualTo("short");
    }

    private static List<float[]> vectors(OnnxEmbeddingModel model, List<String> texts) {
        return model.call(new EmbeddingRequest(texts, null)).getResults().stream()
                .map(e -> e.getOutput())
                .toList();
    }
}
