package io.lorekeeper.evaluator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.lorekeeper.evaluator.EvalRunner.Asked;
import io.lorekeeper.evaluator.EvalRunner.Cost;
import io.lorekeeper.evaluator.EvalRunner.Evidence;
import io.lorekeeper.evaluator.EvalRunner.Graded;
import io.lorekeeper.evaluator.EvalRunner.ItemResult;
import io.lorekeeper.evaluator.EvalRunner.Reply;
import io.lorekeeper.evaluator.EvalRunner.Scores;
import io.lorekeeper.evaluator.EvalRunner.Timings;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A result is built from parts but stored and reported flat, under the names report.json and the service's
 * {@code evaluation_result} rows have always used: rows written before the parts existed still read.
 */
class ItemResultJsonTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static final ItemResult RESULT = new ItemResult(
            new Asked("i1", "2", "rag", "Who?", List.of("Pip"), null),
            new Reply("q1", "DONE", "Pip", null, null, 0.75, Map.of("support", 1.0), null),
            new Scores(1.0, 1.0, 0.9, null),
            new Evidence(0.5, 2, 1, 3, 120, 0.01),
            new Cost(2, 300, 250L, 50L, 1L),
            new Timings(40, 35L),
            new Graded(1.0, new Judgement("correct", "same", null, 1, 20)));

    @Test
    void writesTheFieldsSideBySideUnderTheirStoredNames() {
        JsonNode json = JSON.valueToTree(RESULT);
        assertThat(json.path("itemId").asString()).isEqualTo("i1");
        assertThat(json.path("status").asString()).isEqualTo("DONE");
        assertThat(json.path("f1").asDouble()).isEqualTo(1.0);
        assertThat(json.path("contextTokens").asInt()).isEqualTo(120);
        assertThat(json.path("llmCalls").asLong()).isEqualTo(2);
        assertThat(json.path("llmTokens").asLong()).isEqualTo(300);
        assertThat(json.path("latencyMs").asLong()).isEqualTo(40);
        assertThat(json.path("judge").asDouble()).isEqualTo(1.0);
        assertThat(json.path("judgement").path("verdict").asString()).isEqualTo("correct");
        assertThat(json.has("asked") || json.has("cost") || json.has("graded")).isFalse();
        assertThat(JSON.treeToValue(json, ItemResult.class)).isEqualTo(RESULT);
    }

    @Test
    void readsARowStoredBeforeThePartsExisted() {
        ItemResult stored = JSON.readValue("""
                {"itemId":"master","category":"all","strategy":"extractive","questionId":null,"status":"DONE",
                 "question":"Who?","answer":"Ida","gold":["Ida Marsh"],"choiceIndex":null,"answerIndex":null,
                 "f1":0.5,"em":0.0,"rougeL":0.5,"accuracy":null,"evidenceRecall":null,"goldEvidence":0,
                 "unresolvedEvidence":0,"contextSpans":0,"contextTokens":null,"llmCalls":0,"llmTokens":0,
                 "latencyMs":5,"runMs":null,"error":null}""", ItemResult.class);
        assertThat(stored.asked().itemId()).isEqualTo("master");
        assertThat(stored.reply().answer()).isEqualTo("Ida");
        assertThat(stored.scores().f1()).isEqualTo(0.5);
        assertThat(stored.cost().promptTokens()).isNull();
        assertThat(stored.timings().latencyMs()).isEqualTo(5);
        assertThat(stored.graded()).isEqualTo(Graded.NONE);
        assertThat(stored.score()).isEqualTo(0.5);
    }
}
