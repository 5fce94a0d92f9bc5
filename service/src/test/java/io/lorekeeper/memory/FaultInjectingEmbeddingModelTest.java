package io.lorekeeper.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.ai.embedding.EmbeddingRequest;

/** The suite's embedding double remembers vectors; a remembered one must be exactly what the model computes. */
class FaultInjectingEmbeddingModelTest {

    private static final String LIGHTHOUSE = "The keeper of the north light rang the fog bell at dusk.";
    private static final String HARBOUR = "Rosalind lives in the harbour town.";
    private static final String FERRY = "The ferry to the island leaves at nine.";

    @Test
    void rememberedAndFreshTextsInOneCallGetTheModelsOwnVectorsInOrder() throws Exception {
        FaultInjectingEmbeddingModel remembering = new FaultInjectingEmbeddingModel();
        remembering.embed(List.of(LIGHTHOUSE, HARBOUR));

        List<float[]> mixed = remembering.embed(List.of(FERRY, LIGHTHOUSE, FERRY, HARBOUR));

        try (OnnxEmbeddingModel model = new OnnxEmbeddingModel(1)) {
            List<float[]> expected =
                    model
                            .call(new EmbeddingRequest(List.of(FERRY, LIGHTHOUSE, FERRY, HARBOUR), null))
                            .getResults()
                            .stream()
                            .map(e -> e.getOutput())
                            .toList();
            for (int i = 0; i < expected.size(); i++) {
                assertThat(mixed.get(i)).as("vector %d", i).containsExactly(expected.get(i));
            }
        }
        assertThat(remembering.textsEmbedded())
                .as("remembered texts count as embedded")
                .isEqualTo(6);
    }

    @Test
    void aCallerThatChangesItsVectorDoesNotChangeTheNextCallers() {
        FaultInjectingEmbeddingModel remembering = new FaultInjectingEmbeddingModel();
        float[] first = remembering.embed(HARBOUR);
        float original = first[0];
        first[0] = original + 1;

        assertThat(remembering.embed(HARBOUR)[0]).isEqualTo(original);
    }

    @Test
    void theFailureSwitchFailsARememberedTextToo() {
        FaultInjectingEmbeddingModel remembering = new FaultInjectingEmbeddingModel();
        remembering.embed(LIGHTHOUSE);
        remembering.failAfter(0);

        assertThatThrownBy(() -> remembering.embed(LIGHTHOUSE)).hasMessageContaining("injected embedding failure");
        remembering.heal();
        assertThat(remembering.embed(LIGHTHOUSE)).hasSize(OnnxEmbeddingModel.DIMENSIONS);
    }
}
