package io.lorekeeper.eval;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.lorekeeper.support.Api;
import io.lorekeeper.support.IntegrationTest;
import tools.jackson.databind.JsonNode;

/** POST /v1/evaluations runs against this very service over HTTP and stores its report. */
@IntegrationTest
class EvaluationApiTest {

    @Autowired
    Api api;

    @Test
    void runsInlineItemsWithAStrategyAndASearchProbeAndReportsPerCategory() throws Exception {
        String marker = UUID.randomUUID().toString().substring(0, 8);
        String text = "The lighthouse keeper of Nareth Point was Oswin Clay " + marker
                + ". He kept the lamp for forty years.\n\n"
                + "The village baker sold rye bread every morning. Her name was Della Fenn.";
        Map<String, Object> textDoc = Map.of("title", "Nareth " + marker, "text", text);
        Map<String, Object> conversation = Map.of(
                "title",
                "chat " + marker,
                "sessions",
                List.of(Map.of(
                        "id",
                        "s1",
                        "dateTime",
                        "1 May 2023",
                        "turns",
                        List.of(
                                Map.of(
                                        "id",
                                        "D1:1",
                                        "speaker",
                                        "Ann",
                                        "text",
                                        "I adopted a grey cat called Miso " + marker + "."),
                                Map.of("id", "D1:2", "speaker", "Bob", "text", "Lovely! My dog is called Pepper.")))));
        List<Map<String, Object>> items = List.of(
                Map.of(
                        "id",
                        "keeper",
                        "document",
                        textDoc,
                        "question",
                        "Who was the lighthouse keeper of Nareth Point?",
                        "answer",
                        "Oswin Clay",
                        "evidence",
                        List.of("The lighthouse keeper of Nareth Point was Oswin Clay " + marker + "."),
                        "category",
                        "people"),
                Map.of(
                        "id",
                        "baker",
                        "document",
                        textDoc,
                        "question",
                        "What did the village baker sell?",
                        "answer",
                        "rye bread",
                        "category",
                        "things"),
                Map.of(
                        "id",
                        "cat",
                        "document",
                        conversation,
                        "question",
                        "What is the name of Ann's cat?",
                        "answer",
                        "Miso",
                        "evidence",
                        List.of("D1:1", "D9:9"),
                        "category",
                        "people"));

        Api.Response started = api.post(
                "/v1/evaluations",
                Map.of(
                        "dataset",
                        "jsonl",
                        "items",
                        items,
                        "strategies",
                        List.of("extractive", "search:hybrid"),
                        "concurrency",
                        2,
                        "searchK",
                        5));
        assertThat(started.status()).as(started.body()).isEqualTo(202);
        String location = started.header("Location");
        assertThat(location).startsWith("/v1/evaluations/");

        JsonNode view = api.awaitFinished(location, Duration.ofMinutes(3));
        assertThat(view.path("status").asString()).as(view.toString()).isEqualTo("DONE");
        assertThat(view.path("done").asInt()).isEqualTo(6);
        assertThat(view.path("total").asInt()).isEqualTo(6);
        JsonNode report = view.path("report");
        assertThat(report.path("items")).hasSize(6);
        for (JsonNode item : report.path("items")) {
            assertThat(item.path("status").asString()).as(item.toString()).isEqualTo("DONE");
        }
        JsonNode keeper = find(report.path("items"), "keeper", "extractive");
        assertThat(keeper.path("answer").asString()).contains("Oswin Clay");
        assertThat(keeper.path("f1").asDouble()).isBetween(0.0, 1.0).isPositive();
        assertThat(keeper.path("evidenceRecall").asDouble()).isEqualTo(1.0);
        // The conversation's gold turn D1:1 resolves through /turns; D9:9 does not exist and is counted, not scored.
        JsonNode cat = find(report.path("items"), "cat", "search:hybrid");
        assertThat(cat.path("goldEvidence").asInt()).isEqualTo(1);
        assertThat(cat.path("unresolvedEvidence").asInt()).isEqualTo(1);
        assertThat(cat.path("evidenceRecall").asDouble()).isEqualTo(1.0);
        assertThat(cat.path("f1").isNull() || cat.path("f1").isMissingNode()).isTrue();
        assertThat(cat.path("contextTokens").asInt()).isPositive();
        // no gold evidence: recall does not apply
        assertThat(find(report.path("items"), "baker", "extractive")
                        .path("evidenceRecall")
                        .isNull())
                .isTrue();

        JsonNode summary = report.path("summary");
        assertThat(rows(summary, "extractive")).containsExactly("people", "things", "overall");
        assertThat(rows(summary, "search:hybrid")).containsExactly("people", "things", "overall");
        JsonNode overall = row(summary, "extractive", "overall");
        assertThat(overall.path("n").asInt()).isEqualTo(3);
        assertThat(overall.path("llmCalls").asDouble()).isZero();
        assertThat(row(summary, "search:hybrid", "people")
                        .path("evidenceRecall")
                        .asDouble())
                .isEqualTo(1.0);
    }

    /** A run that could not start (dataset, path, items, strategies) is refused by EvaluationControllerTest's cases. */
    @Test
    void anUnknownRunIs404() {
        assertThat(api.get("/v1/evaluations/" + UUID.randomUUID()).status()).isEqualTo(404);
    }

    @Test
    void theLlmJudgeIsRefusedWithoutAnLlm() {
        Api.Response judged = api.post(
                "/v1/evaluations",
                Map.of(
                        "dataset",
                        "jsonl",
                        "items",
                        List.of(Map.of("question", "q", "answer", "a", "document", Map.of("text", "t"))),
                        "strategies",
                        List.of("extractive"),
                        "judge",
                        true));
        assertThat(judged.status()).isEqualTo(400);
        assertThat(judged.header("Content-Type")).startsWith("application/problem+json");
        assertThat(judged.json().path("field").asString()).isEqualTo("judge");
        assertThat(judged.json().path("detail").asString()).contains("needs an LLM");
    }

    private static JsonNode find(JsonNode items, String id, String strategy) {
        for (JsonNode i : items) {
            if (i.path("itemId").asString().equals(id)
                    && i.path("strategy").asString().equals(strategy)) {
                return i;
            }
        }
        throw new AssertionError("no result for " + id + " with " + strategy);
    }

    private static List<String> rows(JsonNode summary, String strategy) {
        List<String> out = new java.util.ArrayList<>();
        summary.forEach(r -> {
            if (r.path("strategy").asString().equals(strategy)) {
                out.add(r.path("category").asString());
            }
        });
        return out;
    }

    private static JsonNode row(JsonNode summary, String strategy, String category) {
        for (JsonNode r : summary) {
            if (r.path("strategy").asString().equals(strategy)
                    && r.path("category").asString().equals(category)) {
                return r;
            }
        }
        throw new AssertionError("no row " + strategy + "/" + category);
    }
}
