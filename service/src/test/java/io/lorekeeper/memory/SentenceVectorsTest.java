package io.lorekeeper.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;

import org.junit.jupiter.api.Test;

/** float16 storage keeps a sentence's cosine scores to within a thousandth. */
class SentenceVectorsTest {

    @Test
    void aVectorSurvivesItsFloat16RoundTripCloseEnoughToRankTheSame() {
        Random random = new Random(7);
        float[] a = unit(random);
        float[] b = unit(random);
        float[] a16 = SentenceVectors.decode(SentenceVectors.encode(a));
        float[] b16 = SentenceVectors.decode(SentenceVectors.encode(b));

        assertThat(SentenceVectors.encode(a)).hasSize(2 * 384);
        assertThat(cosine(a16, b16)).isCloseTo(cosine(a, b), org.assertj.core.data.Offset.offset(1e-3));
        assertThat(cosine(a16, a)).isGreaterThan(0.9999);
    }

    private static float[] unit(Random random) {
        float[] v = new float[384];
        double norm = 0;
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) random.nextGaussian();
            norm += v[i] * v[i];
        }
        for (int i = 0; i < v.length; i++) {
            v[i] /= (float) Math.sqrt(norm);
        }
        return v;
    }

    private static double cosine(float[] a, float[] b) {
        double dot = 0, na = 0, nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return dot / Math.sqrt(na * nb);
    }
}
