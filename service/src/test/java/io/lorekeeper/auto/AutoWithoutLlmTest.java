package io.lorekeeper.auto;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.lorekeeper.support.Api;
import io.lorekeeper.support.IntegrationTest;
import io.lorekeeper.support.TestDocuments;
import tools.jackson.databind.JsonNode;

/** With no LLM configured, auto is accepted and answers extractively, saying why. */
@IntegrationTest
class AutoWithoutLlmTest {

    @Autowired
    Api api;

    @Test
    void itAnswersExtractivelyAndSaysWhy() {
        UUID report = api.ingest(
                TestDocuments.aText("Annual report of the Kilmory lifeboat station. In 2022 the crew launched 31 times "
                                + "and rescued 12 people. The new boat, the Margaret Lindsay, arrived in March.")
                        .titled("Lifeboat report")
                        .build());

        JsonNode answer = api.ask(Map.of(
                "documentIds",
                List.of(report),
                "question",
                "How many people did the crew rescue?",
                "strategy",
                "auto"));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("mode").asString()).isEqualTo("extractive");
        // the short answer: the count of what was asked about, from the cited sentence
        assertThat(answer.get("answer").asString()).isEqualTo("12 people");
        assertThat(answer.get("citations").get(0).get("quote").asString()).contains("rescued 12 people");
        assertThat(answer.get("answerKind").asString()).isEqualTo("span");
        // the answer itself says that no model made it, and why
        assertThat(answer.get("degraded")).hasSize(1);
        JsonNode fallback = answer.get("degraded").get(0);
        assertThat(fallback.get("strategy").asString()).isEqualTo("auto");
        assertThat(fallback.get("fallback").asString()).isEqualTo("extractive");
        assertThat(fallback.get("reason").asString()).startsWith("no LLM is configured: answered without a model");
        JsonNode auto = null;
        for (JsonNode e : api.get("/v1/questions/" + answer.get("id").asString() + "/trace")
                .json()
                .get("events")) {
            if (e.get("type").asString().equals("auto.route")) {
                auto = e.get("payload");
            }
        }
        assertThat(auto.get("chosen").asString()).isEqualTo("extractive");
        assertThat(auto.get("rule").asString()).isEqualTo("no-llm");
        assertThat(auto.get("reasons").get(0).asString()).isEqualTo("no LLM is configured");
    }

    @Test
    void theEvaluationHarnessComparesAutoWithTheStrategyItPicks() {
        Map<String, Object> doc = Map.of(
                "title",
                "Harbour notes",
                "text",
                "The harbour master of Port Ellen was Isla Munro. "
                        + "She kept the tide tables. The ferry to Kennacraig left at seven every morning.");
        List<Map<String, Object>> items = List.of(
                Map.of(
                        "id",
                        "master",
                        "document",
                        doc,
                        "question",
                        "Who was the harbour master of Port Ellen?",
                        "answer",
                        "Isla Munro"),
                Map.of(
                        "id",
                        "ferry",
                        "document",
                        doc,
                        "question",
                        "When did the ferry to Kennacraig leave?",
                        "answer",
                        "at seven"));

        Api.Response started = api.post(
                "/v1/evaluations",
                Map.of(
                        "dataset",
                        "jsonl",
                        "items",
                        items,
                        "strategies",
                        List.of("auto", "extractive"),
                        "options",
                        Map.of("auto", Map.of("extractive", Map.of("k", 4)))));

        assertThat(started.status()).as(started.body()).isEqualTo(202);
        JsonNode view = api.awaitFinished(started.header("Location"), java.time.Duration.ofMinutes(3));
        assertThat(view.path("status").asString()).as(view.toString()).isEqualTo("DONE");
        JsonNode results = view.path("report").path("items");
        assertThat(results).hasSize(4);
        for (String id : List.of("master", "ferry")) {
            JsonNode auto = null;
            JsonNode extractive = null;
            for (JsonNode r : results) {
                if (r.path("itemId").asString().equals(id)) {
                    if (r.path("strategy").asString().equals("auto")) {
                        auto = r;
                    } else {
                        extractive = r;
                    }
                }
            }
            assertThat(auto.path("status").asString()).isEqualTo("DONE");
            assertThat(auto.path("answer").asString())
                    .as("auto picked extractive")
                    .isEqualTo(extractive.path("answer").asString());
        }
        Api.Response bad = api.post(
                "/v1/evaluations",
                Map.of(
                        "dataset",
                        "jsonl",
                        "items",
                        items,
                        "strategies",
                        List.of("auto"),
                        "options",
                        Map.of("auto", Map.of("extractive", Map.of("k", 0)))));
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.json().path("field").asString()).startsWith("options.auto");
    }
}
