package io.lorekeeper.evaluator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class SpanRankerFitTest {

    /** Two items; in each the candidate with the larger "length" (in characters, not scaled) is right. */
    private static final List<SpanRankerFit.Example> EXAMPLES = List.of(
            new SpanRankerFit.Example(
                    "a",
                    List.of(Map.of("length", 120.0), Map.of("length", 480.0), Map.of("length", 300.0)),
                    new double[] {0, 1, 0.5},
                    0),
            new SpanRankerFit.Example(
                    "b", List.of(Map.of("length", 900.0), Map.of("length", 100.0)), new double[] {1, 0}, 1),
            // every candidate wrong: nothing to learn, skipped
            new SpanRankerFit.Example(
                    "c", List.of(Map.of("length", 5.0), Map.of("length", 1.0)), new double[] {0, 0}, 0));

    @Test
    void fitsTheSameWeightsEveryTimeOnRawFeatureUnits() {
        SpanRankerFit.Model first = SpanRankerFit.fit(EXAMPLES);
        SpanRankerFit.Model second = SpanRankerFit.fit(EXAMPLES);

        assertThat(first).isEqualTo(second);
        assertThat(first.items()).isEqualTo(2);
        assertThat(first.weights().get("length")).isPositive();
        assertThat(first.f1(EXAMPLES.get(0))).isEqualTo(1.0);
        assertThat(first.f1(EXAMPLES.get(1))).isEqualTo(1.0);
    }

    @Test
    void aTieGoesToTheEarlierCandidateAndNoTrainingPicksTheFirst() {
        SpanRankerFit.Model model = new SpanRankerFit.Model(Map.of("x", 1.0), 1);
        assertThat(model.pick(List.of(Map.of("x", 0.0), Map.of("x", 2.0), Map.of("x", 2.0))))
                .isEqualTo(1);
        assertThat(SpanRankerFit.fit(List.of()).pick(List.of(Map.of("x", 0.0), Map.of("x", 9.0))))
                .isZero();
    }

    @Test
    void writesTheModelAsTheStrategyLoadsIt() {
        JsonNode json = JsonMapper.builder()
                .build()
                .readTree(SpanRankerFit.json(
                        SpanRankerFit.fitChoosing(EXAMPLES, SpanRankerFit.Example::group),
                        "r.json",
                        "scripts/eval.sh ..."));
        assertThat(json.path("weights").path("length").isNumber()).isTrue();
        assertThat(json.path("items").asInt()).isEqualTo(2);
        assertThat(json.path("fittedOn").asString()).isEqualTo("r.json");
        assertThat(json.path("command").asString()).isEqualTo("scripts/eval.sh ...");
    }
}
