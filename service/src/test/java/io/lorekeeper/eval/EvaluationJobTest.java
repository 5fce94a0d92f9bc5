package io.lorekeeper.eval;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.lorekeeper.eval.EvalRunner.ItemResult;
import io.lorekeeper.memory.FaultInjectingEmbeddingModel;
import io.lorekeeper.security.CurrentTenant;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.IntegrationTest;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Evaluations are db-scheduler jobs: one whose replica died mid-run is revived by the scheduler and
 * resumes from the questions it had finished; a failed one is retried over HTTP.
 */
@IntegrationTest
class EvaluationJobTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    Api api;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    FaultInjectingEmbeddingModel embeddings;

    @AfterEach
    void heal() {
        embeddings.heal();
    }

    private static List<Map<String, Object>> items(String marker) {
        Map<String, Object> doc = Map.of(
                "title",
                "Harbour " + marker,
                "text",
                "The harbour master of Kelby was Ida Marsh " + marker
                        + ". She rang the fog bell at dawn.\n\nThe ferry to Orrin left every Tuesday at noon.");
        return List.of(
                Map.of(
                        "id",
                        "master",
                        "document",
                        doc,
                        "question",
                        "Who was the harbour master of Kelby?",
                        "answer",
                        "Ida Marsh"),
                Map.of(
                        "id",
                        "ferry",
                        "document",
                        doc,
                        "question",
                        "When did the ferry to Orrin leave?",
                        "answer",
                        "every Tuesday at noon"));
    }

    @Test
    void aRunLeftByADeadReplicaIsRevivedAndResumesFromItsStoredResults() throws Exception {
        String marker = UUID.randomUUID().toString().substring(0, 8);
        UUID id = UUID.randomUUID();
        StartEvaluation request =
                new StartEvaluation("jsonl", null, items(marker), List.of("extractive"), null, null, 1, null, null);
        jdbc.sql(
                        "INSERT INTO evaluation (id, tenant_id, status, dataset, request, done, total) VALUES (?, ?, 'RUNNING', 'jsonl', ?::jsonb, 1, 2)")
                .params(id, CurrentTenant.DEFAULT, JSON.writeValueAsString(request))
                .update();
        // The dead replica had finished one question before it died...
        ItemResult earlier = new ItemResult(
                "master",
                "all",
                "extractive",
                null,
                "DONE",
                "Who was the harbour master of Kelby?",
                "answered by the replica that died",
                List.of("Ida Marsh"),
                null,
                null,
                0.0,
                0.0,
                0.0,
                null,
                null,
                0,
                0,
                0,
                null,
                0,
                0,
                5,
                null,
                null);
        jdbc.sql(
                        "INSERT INTO evaluation_result (evaluation_id, item_id, strategy, result) VALUES (?, 'master', 'extractive', ?::jsonb)")
                .params(id, JSON.writeValueAsString(earlier))
                .update();
        // ...and its job is still marked picked, with a heartbeat long gone.
        jdbc.sql("""
                INSERT INTO scheduled_tasks (task_name, task_instance, execution_time, picked, picked_by, last_heartbeat, version)
                VALUES (?, ?, now() - interval '1 hour', true, 'replica-that-died', now() - interval '1 hour', 1)""").params(EvaluationJob.TASK, id.toString()).update();

        JsonNode view = api.awaitFinished("/v1/evaluations/" + id, Duration.ofMinutes(2));

        assertThat(view.path("status").asString()).as(view.toString()).isEqualTo("DONE");
        assertThat(view.path("done").asInt()).isEqualTo(2);
        assertThat(view.path("startedAt").isMissingNode()).isFalse();
        JsonNode reportItems = view.path("report").path("items");
        assertThat(reportItems).hasSize(2);
        assertThat(reportItems.get(0).path("itemId").asString()).isEqualTo("master");
        assertThat(reportItems.get(0).path("answer").asString())
                .as("kept, not asked again")
                .isEqualTo("answered by the replica that died");
        assertThat(reportItems.get(1).path("answer").asString()).contains("Tuesday");
        assertThat(jdbc.sql("SELECT count(*) FROM evaluation_result WHERE evaluation_id = ?")
                        .param(id)
                        .query(Integer.class)
                        .single())
                .isEqualTo(2);
        // the run commits DONE before its job returns and db-scheduler removes the job's row: wait for that, briefly
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        int jobs;
        while ((jobs = jdbc.sql("SELECT count(*) FROM scheduled_tasks WHERE task_name = ? AND task_instance = ?")
                                .params(EvaluationJob.TASK, id.toString())
                                .query(Integer.class)
                                .single())
                        > 0
                && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(jobs).as("the job is done").isZero();
    }

    @Test
    void aFailedEvaluationIsRetriedOverHttpAndOnlyAFailedOne() throws Exception {
        String marker = UUID.randomUUID().toString().substring(0, 8);
        embeddings.failAfter(0);
        Api.Response started = api.post(
                "/v1/evaluations",
                Map.of("dataset", "jsonl", "items", items(marker), "strategies", List.of("extractive")));
        assertThat(started.status()).as(started.body()).isEqualTo(202);
        // Immediate execution may have picked the job up before the response was written.
        assertThat(started.json().path("status").asString()).isIn("QUEUED", "RUNNING");
        assertThat(started.json().path("total").asInt()).isEqualTo(2);
        String location = started.header("Location");

        JsonNode failed = api.awaitFinished(location, Duration.ofMinutes(2));
        assertThat(failed.path("status").asString()).as(failed.toString()).isEqualTo("FAILED");
        assertThat(failed.path("error").asString()).contains("injected embedding failure");

        embeddings.heal();
        Api.Response retried = api.post(location + "/retry", Map.of());
        assertThat(retried.status()).as(retried.body()).isEqualTo(202);
        assertThat(retried.json().path("status").asString()).isIn("QUEUED", "RUNNING");
        assertThat(retried.json().has("error")).isFalse();

        JsonNode done = api.awaitFinished(location, Duration.ofMinutes(2));
        assertThat(done.path("status").asString()).as(done.toString()).isEqualTo("DONE");
        assertThat(done.path("report").path("items")).hasSize(2);
        done.path("report")
                .path("items")
                .forEach(i -> assertThat(i.path("status").asString()).isEqualTo("DONE"));

        Api.Response again = api.post(location + "/retry", Map.of());
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.json().path("detail").asString()).contains("DONE");
        assertThat(api.post("/v1/evaluations/" + UUID.randomUUID() + "/retry", Map.of())
                        .status())
                .isEqualTo(404);
    }
}
