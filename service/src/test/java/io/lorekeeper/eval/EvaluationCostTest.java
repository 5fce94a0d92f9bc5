package io.lorekeeper.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.lorekeeper.eval.EvalRunner.ItemResult;
import io.lorekeeper.llm.ScriptedChatModel;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.LlmIntegrationTest;
import io.lorekeeper.text.TokenCounter;
import tools.jackson.databind.JsonNode;

/**
 * What an evaluation reports an answer cost: the question's usage as the service's call log has it,
 * split into prompt and completion tokens, and how much of the document the strategy put before the model.
 */
@LlmIntegrationTest
class EvaluationCostTest {

    @Autowired
    ScriptedChatModel model;

    @Autowired
    Api api;

    @BeforeEach
    void resetModel() {
        model.reset();
    }

    @Test
    void eachItemCarriesTheTokensItsModelCallsReportedAndItsCompaction() throws Exception {
        String marker = UUID.randomUUID().toString().substring(0, 8);
        Map<String, Object> doc = Map.of(
                "title",
                "Kelby " + marker,
                "text",
                "The harbour master of Kelby was Ida Marsh " + marker
                        + ". She kept the tide tables for thirty years.\n\nThe chandler on the quay sold tar and rope to every boat.");
        EvalItem item = new EvalItem(
                "master",
                "jsonl",
                "doc",
                doc,
                "Who was the harbour master of Kelby?",
                List.of("Ida Marsh"),
                null,
                null,
                null,
                "people");
        // an unusable first reply and its repair: two calls whose usage the item must add up
        model.on("rag/answer")
                .once("{\"answer\": \"Ida\"}")
                .reply("{\"answer\": \"Ida Marsh\", \"confidence\": 0.9, \"evidence\": []}");
        ServiceClient client = new ServiceClient(api.uri("/").toString(), null);

        Report report = new EvalRunner(client)
                .run(
                        new EvalRunner.Request("jsonl", List.of(item), List.of("rag"), null, 1, 5, null, null),
                        (d, t) -> {});

        ItemResult result = report.items().getFirst();
        assertThat(result.status()).as(result.toString()).isEqualTo("DONE");
        List<ScriptedChatModel.Reported> reported = List.of(
                model.reported("rag/answer").getFirst(),
                model.reported("rag/answer#repair").getFirst());
        long prompt = reported.stream()
                .mapToLong(ScriptedChatModel.Reported::promptTokens)
                .sum();
        long completion = reported.stream()
                .mapToLong(ScriptedChatModel.Reported::completionTokens)
                .sum();
        assertThat(result.llmCalls()).isEqualTo(2);
        assertThat(result.promptTokens()).isEqualTo(prompt);
        assertThat(result.completionTokens()).isEqualTo(completion);
        assertThat(result.llmTokens()).isEqualTo(prompt + completion);
        assertThat(result.cacheHits())
                .as("the test kit runs without the response cache")
                .isZero();

        // no compaction in rag's trace: the tokens of the passages it read over the document's
        JsonNode question = api.get("/v1/questions/" + result.questionId()).json();
        String text = client.text(question.path("documentIds").get(0).asString());
        assertThat(result.contextTokens()).isPositive();
        assertThat(result.compaction())
                .isCloseTo((double) result.contextTokens() / TokenCounter.count(text), within(1e-12));

        Report.Row overall = report.summary().stream()
                .filter(r -> r.category().equals(Report.OVERALL))
                .findFirst()
                .orElseThrow();
        assertThat(overall.promptTokens()).isEqualTo((double) prompt);
        assertThat(overall.completionTokens()).isEqualTo((double) completion);
        assertThat(overall.cacheHits()).isZero();
        assertThat(overall.compaction()).isEqualTo(result.compaction());
        assertThat(report.markdown())
                .contains("| prompt / completion | cache hits | context tokens | compaction |")
                .contains("| " + prompt + " / " + completion + " | 0.0 |");
    }
}
