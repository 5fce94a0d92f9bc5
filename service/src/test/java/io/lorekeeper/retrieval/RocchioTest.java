package io.lorekeeper.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;

import org.junit.jupiter.api.Test;

class RocchioTest {

    private static double cosine(float[] a, float[] b) {
        double dot = 0, na = 0, nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return dot / Math.sqrt(na * nb);
    }

    @Test
    void theQueryMovesTowardsTheMeanOfTheFeedbackAndStaysUnitLength() {
        float[] query = {1, 0, 0};
        float[] feedback = {0, 2, 0}; // not unit length: each feedback vector counts by its direction only

        float[] moved = DeepSearch.rocchio(query, List.of(feedback), 0.5);

        // (1, 0, 0) + 0.5 * (0, 1, 0), normalised
        assertThat(moved[0]).isCloseTo((float) (1 / Math.sqrt(1.25)), within(1e-6f));
        assertThat(moved[1]).isCloseTo((float) (0.5 / Math.sqrt(1.25)), within(1e-6f));
        assertThat(moved[2]).isZero();
        assertThat(cosine(moved, feedback)).isGreaterThan(cosine(query, feedback));
    }

    @Test
    void withoutFeedbackOrWeightTheQueryKeepsItsDirection() {
        float[] query = {3, 4};

        assertThat(DeepSearch.rocchio(query, List.of(), 0.5)).containsExactly(0.6f, 0.8f);
        assertThat(DeepSearch.rocchio(query, List.of(new float[] {0, 1}), 0)).containsExactly(0.6f, 0.8f);
        assertThat(query)
                .as("the query vector is shared through the cache: never modified")
                .containsExactly(3, 4);
    }
}
