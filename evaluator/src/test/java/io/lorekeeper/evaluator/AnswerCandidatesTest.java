package io.lorekeeper.evaluator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.lorekeeper.evaluator.EvalRunner.Asked;
import io.lorekeeper.evaluator.EvalRunner.Cost;
import io.lorekeeper.evaluator.EvalRunner.Evidence;
import io.lorekeeper.evaluator.EvalRunner.ItemResult;
import io.lorekeeper.evaluator.EvalRunner.Reply;
import io.lorekeeper.evaluator.EvalRunner.Scores;
import io.lorekeeper.evaluator.EvalRunner.Timings;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The extractive strategy's answer candidates, read from its trace and kept per item in report.json. */
class AnswerCandidatesTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void readsTheCandidatesEventFromATrace() {
        JsonNode trace = JSON.readTree("""
                {"events": [
                  {"type": "extractive.retrieve", "payload": {"hits": []}},
                  {"type": "extractive.candidates", "payload": {
                    "candidates": [
                      {"text": "Caroline", "source": "names", "features": {"sentenceScore": 0.8, "inQuestion": 0}},
                      {"text": "7 May 2023", "source": "dates", "features": {"sentenceScore": 0.5, "typeMatch": 1,
                                                                              "label": "not a number"}}
                    ],
                    "chosen": 1, "answered": true}},
                  {"type": "run.status", "payload": {"llmCalls": 0}}
                ]}""");

        AnswerCandidates found = TraceSpans.answerCandidates(trace);

        assertThat(found.chosen()).isEqualTo(1);
        assertThat(found.answered()).isTrue();
        assertThat(found.candidates()).hasSize(2);
        assertThat(found.candidates().get(0).text()).isEqualTo("Caroline");
        assertThat(found.candidates().get(0).source()).isEqualTo("names");
        assertThat(found.candidates().get(0).features())
                .containsExactlyInAnyOrderEntriesOf(Map.of("sentenceScore", 0.8, "inQuestion", 0.0));
        assertThat(found.candidates().get(1).features())
                .containsExactlyInAnyOrderEntriesOf(Map.of("sentenceScore", 0.5, "typeMatch", 1.0));
        assertThat(found.usable()).isTrue();
    }

    @Test
    void aTraceWithoutTheEventHasNoCandidatesAndAnAnswerNotAmongThemIsNotUsable() {
        assertThat(TraceSpans.answerCandidates(JSON.readTree("""
                {"events": [{"type": "extractive.sentences", "payload": {"top": []}}]}"""))).isNull();
        AnswerCandidates yesNo = TraceSpans.answerCandidates(JSON.readTree("""
                {"events": [{"type": "extractive.candidates", "payload": {
                  "candidates": [{"text": "Paris", "source": "names", "features": {"a": 1}}],
                  "chosen": 0, "answered": false}}]}"""));
        assertThat(yesNo.answered()).isFalse();
        assertThat(yesNo.usable()).isFalse();
    }

    @Test
    void reportJsonKeepsTheCandidatesBesideTheAnswer() {
        AnswerCandidates candidates = new AnswerCandidates(
                List.of(new AnswerCandidates.AnswerCandidate("Pip", "names", Map.of("score", 2.0))), 0, true);
        ItemResult result = new ItemResult(
                new Asked("conv-26/1", "1", "extractive", "Who?", List.of("Pip"), null),
                new Reply("q1", "DONE", "Pip", null, null, 0.7, Map.of("support", 1.0), candidates),
                new Scores(1.0, 1.0, 1.0, null),
                new Evidence(1.0, 1, 0, 1, 10, 0.1),
                Cost.NONE,
                new Timings(5, 4L));

        JsonNode json = JSON.valueToTree(result);

        assertThat(json.path("answerCandidates")
                        .path("candidates")
                        .get(0)
                        .path("text")
                        .asString())
                .isEqualTo("Pip");
        assertThat(json.path("answer").asString()).isEqualTo("Pip");
        assertThat(JSON.treeToValue(json, ItemResult.class)).isEqualTo(result);
    }
}
