package io.lorekeeper.question;

import static io.lorekeeper.support.TestDocuments.aText;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.lorekeeper.memory.FaultInjectingEmbeddingModel;
import io.lorekeeper.security.CurrentTenant;
import io.lorekeeper.strategy.StrategyResult;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.IntegrationTest;
import io.lorekeeper.support.TestStrategies.ScriptedStrategy;
import tools.jackson.databind.JsonNode;

/**
 * Ingestion and answering are db-scheduler jobs: when the replica running one dies (its heartbeat
 * stops), another replica revives the job and finishes the work. The dead replica is simulated in
 * the database: jobs marked picked by a replica whose last heartbeat is an hour old, with the
 * document and the question left as it left them. Both are revived by the same sweep.
 */
@IntegrationTest
class JobRevivalTest {

    /** The ingestion job's task name, as stored in scheduled_tasks rows (a persisted name, so spelled out here). */
    private static final String INGESTION_TASK = "ingest-document";

    @Autowired
    Api api;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    ScriptedStrategy scripted;

    @Autowired
    FaultInjectingEmbeddingModel embeddings;

    @Test
    void anIngestionAndAnAnswerLeftByADeadReplicaAreRevivedAndFinished() {
        String marker = UUID.randomUUID().toString().substring(0, 8);
        UUID asked = api.ingest(aText("The ferry " + marker + " to Lismore leaves Oban at noon.")
                .build());
        // a few chunks: small, so that embedding it again is quick
        UUID ingesting = api.ingest(aText(IntStream.range(0, 3)
                        .mapToObj(i ->
                                ("Lantern " + i + " of Varrow " + marker + " was lit by a keeper at dusk. ").repeat(14))
                        .collect(Collectors.joining("\n\n")))
                .build());
        int chunks = jdbc.sql("SELECT count(*) FROM chunk WHERE document_id = ?")
                .param(ingesting)
                .query(Integer.class)
                .single();
        assertThat(chunks).isGreaterThan(1);

        // The replica died in the embed stage of one document, before it had stored any vector...
        jdbc.sql("UPDATE chunk SET embedding = NULL WHERE document_id = ?")
                .param(ingesting)
                .update();
        jdbc.sql("UPDATE ingestion_stage SET status = 'RUNNING', done = 0 WHERE document_id = ? AND stage = 'embed'")
                .param(ingesting)
                .update();
        jdbc.sql("UPDATE document SET status = 'INGESTING' WHERE id = ?")
                .param(ingesting)
                .update();
        deadJob(INGESTION_TASK, ingesting);
        // ...and while it was answering a question about the other one.
        UUID question = UUID.randomUUID();
        jdbc.sql("""
                INSERT INTO question (id, tenant_id, document_ids, question, strategy, status, started_at)
                VALUES (?, ?, ARRAY[?]::uuid[], 'When does the ferry leave?', 'test-scripted', 'RUNNING', now() - interval '1 hour')""").params(question, CurrentTenant.DEFAULT, asked).update();
        // the dead run had got as far as one step of its own
        jdbc.sql("""
                INSERT INTO trace_event (question_id, seq, type, payload) VALUES
                (?, 1, 'run.status', '{"type": "run.status", "status": "RUNNING", "strategy": "test-scripted", "worker": "dead-1"}'::jsonb),
                (?, 2, 'retrieve', '{"hits": 3}'::jsonb)""").params(question, question).update();
        scripted.script(context -> new StrategyResult(
                "revived: " + context.question(), StrategyResult.GENERATED, List.of(), 0.7, null, false));
        deadJob(AnswerJob.TASK, question);
        int embeddedBefore = embeddings.textsEmbedded();

        JsonNode answer = api.awaitQuestion(question, Duration.ofMinutes(1));
        JsonNode document = api.awaitDocument(ingesting, "READY", Duration.ofMinutes(1));

        assertThat(answer.get("status").asString()).as(answer.toString()).isEqualTo("DONE");
        assertThat(answer.get("answer").asString()).isEqualTo("revived: When does the ferry leave?");
        List<String> trace = new ArrayList<>();
        JsonNode events = api.get("/v1/questions/" + question + "/trace").json().get("events");
        events.forEach(e -> trace.add(e.get("type").asString()
                + (e.get("type").asString().equals("run.status")
                        ? ":" + e.get("payload").get("status").asString()
                        : "")));
        assertThat(trace)
                .containsExactly(
                        "run.status:RUNNING",
                        "retrieve",
                        "run.restarted",
                        "run.status:RUNNING",
                        "run.citations",
                        "run.status:DONE");
        JsonNode restarted = events.get(2).get("payload");
        assertThat(restarted.get("earlierRunFrom").asInt()).isEqualTo(1);
        assertThat(restarted.get("earlierRunTo").asInt()).isEqualTo(2);
        assertThat(restarted.get("worker").asString())
                .isEqualTo(events.get(3).get("payload").get("worker").asString())
                .isNotEqualTo("dead-1");

        assertThat(jdbc.sql("SELECT count(*) FROM chunk WHERE document_id = ? AND embedding IS NOT NULL")
                        .param(ingesting)
                        .query(Integer.class)
                        .single())
                .isEqualTo(chunks);
        assertThat(embeddings.textsEmbedded() - embeddedBefore)
                .as("every chunk embedded once by the reviving replica")
                .isEqualTo(chunks);
        document.get("stages").forEach(stage -> {
            if (stage.get("name").asString().equals("embed")) {
                assertThat(stage.get("status").asString()).isEqualTo("DONE");
                assertThat(stage.get("done").asInt()).isEqualTo(chunks);
            }
        });
        for (UUID id : List.of(ingesting, question)) {
            assertThat(jdbc.sql("SELECT count(*) FROM scheduled_tasks WHERE task_instance = ?")
                            .param(id.toString())
                            .query(Integer.class)
                            .single())
                    .as("the revived job is done")
                    .isZero();
        }
    }

    /** A job row as a replica leaves it when it dies mid-run: picked, with a heartbeat long gone. */
    private void deadJob(String task, UUID id) {
        jdbc.sql("""
                INSERT INTO scheduled_tasks (task_name, task_instance, execution_time, picked, picked_by, last_heartbeat, version)
                VALUES (?, ?, now() - interval '1 hour', true, 'replica-that-died', now() - interval '1 hour', 1)""").params(task, id.toString()).update();
    }
}
