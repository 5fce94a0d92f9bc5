package io.lorekeeper.question;

import static io.lorekeeper.llm.FakeOpenAi.completion;
import static io.lorekeeper.llm.FakeOpenAi.tooManyRequests;
import static io.lorekeeper.support.TestDocuments.aText;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.lorekeeper.llm.FakeOpenAi;
import io.lorekeeper.llm.FakeOpenAiTest;
import io.lorekeeper.support.Api;
import tools.jackson.databind.JsonNode;

/**
 * A question whose model endpoint answers 429 with a {@code Retry-After} longer than
 * {@code retry.max-wait} (60 s) is not failed and does not hold a thread: it goes back to the
 * queue, says so in its trace, and its job is rescheduled for when the endpoint asked; then it runs
 * again. The wait is skipped by moving the job's due time, not slept through.
 */
@FakeOpenAiTest
class RateLimitRequeueTest {

    @Autowired
    Api api;

    @Autowired
    JdbcClient jdbc;

    private final FakeOpenAi fake = FakeOpenAi.get();

    @Test
    void aLongRetryAfterPutsTheQuestionBackInTheQueueUntilTheWaitIsOver() {
        UUID doc = ingest("The Corryvreckan whirlpool " + UUID.randomUUID() + " roars loudest on a spring flood tide.");
        fake.onTask("rag/answer", tooManyRequests(600));

        Api.Response asked = api.post(
                "/v1/questions",
                Map.of("documentIds", List.of(doc), "question", "When does it roar loudest?", "strategy", "rag"));
        UUID id = UUID.fromString(asked.json().get("id").asString());

        // back in the queue, with its job due when the endpoint asked (not picked, not retried in-process)
        await().atMost(Duration.ofSeconds(60)).until(() -> secondsUntilDue(id) != null && secondsUntilDue(id) > 500);
        assertThat(secondsUntilDue(id)).isBetween(590.0, 601.0);
        JsonNode queued = api.get("/v1/questions/" + id).json();
        assertThat(queued.get("status").asString()).isEqualTo("QUEUED");
        assertThat(queued.path("timings").path("startedAt").isNull()
                        || queued.path("timings").path("startedAt").isMissingNode())
                .as(queued.toString())
                .isTrue();
        JsonNode requeued = events(id, "run.requeued").getFirst();
        assertThat(requeued.get("afterSeconds").asLong()).isEqualTo(600);
        assertThat(requeued.get("reason").asString()).contains("rate limited").contains("600 s");
        assertThat(fake.requestCount()).as("one call, no retries in-process").isEqualTo(1);

        fake.onTask("rag/answer", completion("""
                {"answer": "on a spring flood tide", "confidence": 0.8, "choice": null,
                 "evidence": [{"passage": 1, "quote": "roars loudest on a spring flood tide"}]}"""));
        jdbc.sql("UPDATE scheduled_tasks SET execution_time = now() WHERE task_name = ? AND task_instance = ?")
                .params(AnswerJob.TASK, id.toString())
                .update();

        JsonNode done = api.awaitQuestion(id, Duration.ofSeconds(60));
        assertThat(done.get("status").asString()).as(done.toString()).isEqualTo("DONE");
        assertThat(done.get("answer").asString()).isEqualTo("on a spring flood tide");
        assertThat(done.get("citations").get(0).get("quote").asString())
                .isEqualTo("roars loudest on a spring flood tide");
        assertThat(jdbc.sql("SELECT outcome FROM llm_call WHERE question_id = ? ORDER BY id")
                        .param(id)
                        .query(String.class)
                        .list())
                .containsExactly("rate_limited", "ok");
        List<String> trace = new ArrayList<>();
        api.get("/v1/questions/" + id + "/trace")
                .json()
                .get("events")
                .forEach(e -> trace.add(e.get("type").asString()
                        + (e.get("type").asString().equals("run.status")
                                ? ":" + e.get("payload").get("status").asString()
                                : "")));
        assertThat(trace)
                .startsWith("run.status:RUNNING")
                .containsSubsequence("run.status:RUNNING", "run.requeued", "run.status:RUNNING", "run.status:DONE")
                .endsWith("run.status:DONE");
        assertThat(trace.stream().filter(t -> t.equals("run.requeued"))).hasSize(1);
    }

    /** Seconds until the question's job is due, while it waits unpicked; null while it runs or when it has none. */
    private Double secondsUntilDue(UUID id) {
        return jdbc.sql("""
                SELECT extract(epoch FROM execution_time - now()) FROM scheduled_tasks
                WHERE task_name = ? AND task_instance = ? AND NOT picked""")
                .params(AnswerJob.TASK, id.toString())
                .query(Double.class)
                .optional()
                .orElse(null);
    }

    private List<JsonNode> events(UUID question, String type) {
        List<JsonNode> found = new ArrayList<>();
        api.get("/v1/questions/" + question + "/trace").json().get("events").forEach(e -> {
            if (e.get("type").asString().equals(type)) {
                found.add(e.get("payload"));
            }
        });
        return found;
    }

    private UUID ingest(String text) {
        fake.onTask("gam/memo", completion("{\"memo\": \"A note about the text.\"}"));
        fake.onTask("gam/page-header", completion("{\"header\": \"An excerpt of a sailing guide.\"}"));
        fake.onTask("mindgraph/build", completion("{\"operations\": []}"));
        UUID id = api.ingest(aText(text).build());
        fake.reset();
        return id;
    }
}
