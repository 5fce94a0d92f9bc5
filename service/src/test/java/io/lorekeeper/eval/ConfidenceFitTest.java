package io.lorekeeper.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class ConfidenceFitTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /**
     * Answers whose rightness depends on one feature (a date answer is right 90% of the time, a phrase
     * 10%) and not on another (noise): the fit learns the first, ignores the second, and on the held-out
     * third beats both the strategy's old confidence and a constant.
     */
    @Test
    void learnsWhichFeaturesPredictARightAnswerAndScoresItOnItemsItDidNotFitOn(@TempDir Path dir) throws Exception {
        Random random = new Random(7);
        List<Map<String, Object>> items = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            boolean date = i % 2 == 0;
            boolean right = random.nextDouble() < (date ? 0.9 : 0.1);
            Map<String, Object> features = new LinkedHashMap<>();
            features.put(date ? "kind_date" : "kind_phrase", 1.0);
            features.put("noise", random.nextDouble());
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("itemId", "q" + i);
            item.put("strategy", "extractive");
            item.put("status", "DONE");
            item.put("f1", right ? 1.0 : 0.0);
            item.put("confidence", 0.9);
            item.put("confidenceFeatures", features);
            items.add(item);
        }
        // another strategy's answers, a failed one and one without features are not examples
        items.add(Map.of(
                "itemId",
                "r1",
                "strategy",
                "rag",
                "status",
                "DONE",
                "f1",
                1.0,
                "confidenceFeatures",
                Map.of("x", 1.0)));
        items.add(Map.of(
                "itemId",
                "f1",
                "strategy",
                "extractive",
                "status",
                "FAILED",
                "confidenceFeatures",
                Map.of("kind_date", 1.0)));
        items.add(Map.of("itemId", "n1", "strategy", "extractive", "status", "DONE", "f1", 1.0));
        Path report = dir.resolve("report.json");
        Files.writeString(report, JSON.writeValueAsString(Map.of("dataset", "locomo", "items", items)));

        List<Double> before = new ArrayList<>();
        List<ConfidenceFit.Example> examples =
                ConfidenceFit.examples(List.of(report), "extractive", before, new ArrayList<>());
        ConfidenceFit.Fit fit = ConfidenceFit.fit(examples, before);

        assertThat(examples).hasSize(600);
        assertThat(fit.trained() + fit.held()).isEqualTo(600);
        assertThat(fit.held()).isBetween(150, 250);
        assertThat(examples.stream().filter(ConfidenceFit.Example::heldOut).count())
                .isEqualTo(fit.held());
        assertThat(fit.weights().get("kind_date")).isGreaterThan(1.5);
        assertThat(fit.weights().get("kind_phrase")).isLessThan(-1.5);
        // noise gets what chance correlation in 400 examples gives it (its standard error is about 0.6), far less than
        // the kinds
        assertThat(Math.abs(fit.weights().get("noise"))).isLessThan(1.2);
        // a perfect model here scores 0.09 (0.9 * 0.1); a constant 0.5 scores 0.25; always 0.9 scores about 0.41
        assertThat(fit.heldBrier()).isLessThan(0.12);
        assertThat(fit.heldBrierBefore()).isGreaterThan(0.3);

        JsonNode written = JSON.readTree(ConfidenceFit.json(fit, "the command"));
        assertThat(written.get("intercept").asDouble()).isEqualTo(fit.intercept());
        assertThat(written.get("weights").get("kind_date").asDouble())
                .isEqualTo(fit.weights().get("kind_date"));
        assertThat(written.get("heldOut").asInt()).isEqualTo(fit.held());
        assertThat(written.get("command").asString()).isEqualTo("the command");
    }

    @Test
    void refusesToFitNothing(@TempDir Path dir) throws Exception {
        Path report = dir.resolve("report.json");
        Files.writeString(report, JSON.writeValueAsString(Map.of("dataset", "locomo", "items", List.of())));

        List<ConfidenceFit.Example> none =
                ConfidenceFit.examples(List.of(report), "extractive", new ArrayList<>(), new ArrayList<>());

        assertThatThrownBy(() -> ConfidenceFit.fit(none, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no examples");
    }
}
