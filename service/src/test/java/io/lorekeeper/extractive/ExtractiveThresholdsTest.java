package io.lorekeeper.extractive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * The extractive strategy's thresholds at their boundaries: a yes needs exactly half the question's
 * content terms in the evidence; confidences are clamped to [0.01, 0.99]; the fitted model is the one
 * on the classpath; a choice's confidence is its softmax share.
 */
class ExtractiveThresholdsTest {

    @Test
    void yesNeedsHalfTheQuestionsTermsNotMore() {
        // content terms: lighthouse, keeper, painted, door
        String question = "Is the lighthouse keeper painting the door?";
        assertThat(ClosedQuestions.yesOrNo(question, "The lighthouse keeper slept."))
                .isEqualTo("Yes");
        assertThat(ClosedQuestions.yesOrNo(question, "The lighthouse was dark."))
                .isEqualTo("No");
        assertThat(ClosedQuestions.yesOrNo(question, "Nothing here.")).isEqualTo("No");
        assertThat(ClosedQuestions.yesOrNo("Is it?", "It is."))
                .as("no content terms asked")
                .isEqualTo("No");
    }

    @Test
    void aFeatureCountsByItsValueTimesItsWeight() {
        Confidence.Model model = new Confidence.Model(0.0, Map.of("best", 0.5));
        assertThat(model.probability(Map.of("best", 2.0))).isCloseTo(1 / (1 + Math.exp(-1)), within(1e-9));
        assertThat(new Confidence.Model(1.0, Map.of()).probability(Map.of()))
                .isCloseTo(1 / (1 + Math.exp(-1)), within(1e-9));
    }

    @Test
    void confidencesStayWithinOnePercentAndNinetyNinePercent() {
        assertThat(new Confidence.Model(50.0, Map.of()).probability(Map.of())).isEqualTo(0.99);
        assertThat(new Confidence.Model(-50.0, Map.of()).probability(Map.of())).isEqualTo(0.01);
        assertThat(Confidence.ofChoice(new double[] {100, 0, 0}, 0, 1.0)).isEqualTo(0.99);
        assertThat(Confidence.ofChoice(new double[] {100, 0, 0}, 1, 1.0)).isEqualTo(0.01);
    }

    @Test
    void aChoicesConfidenceIsItsSoftmaxShareAtTheTemperature() {
        double[] supports = {2.0, 1.0, 1.0};
        double e = Math.exp(1.0 / 0.5);
        assertThat(Confidence.ofChoice(supports, 0, 0.5)).isCloseTo(e / (e + 2), within(1e-9));
        assertThat(Confidence.ofChoice(supports, 1, 0.5)).isCloseTo(1 / (e + 2), within(1e-9));
        assertThat(Confidence.ofChoice(new double[] {3.0, 3.0}, 1, 2.0)).isCloseTo(0.5, within(1e-9));
        assertThat(Confidence.ofChoice(new double[] {-1.0, -3.0}, 0, 1.0))
                .as("negative supports")
                .isCloseTo(1 / (1 + Math.exp(-2)), within(1e-9));
    }

    @Test
    void theFittedModelIsLoadedFromTheClasspathAndAMissingOneIsRefused() {
        Confidence.Model fitted = Confidence.Model.load(Confidence.MODEL);
        assertThat(fitted.weights()).containsKey("kind_choice").containsKey("best");
        assertThat(fitted.intercept()).isNotZero();
        Map<String, Double> features = Map.of("kind_choice", 1.0, "best", 0.7);
        assertThat(Confidence.of(features)).isCloseTo(fitted.probability(features), within(1e-12));
        assertThat(Confidence.of(features)).isBetween(0.02, 0.98);
        assertThatThrownBy(() -> Confidence.Model.load("extractive/missing.json"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("missing classpath resource");
    }
}
