package io.lorekeeper.eval;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import io.lorekeeper.eval.EvalRunner.ItemResult;

import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code evaluation} table, one row per run started over HTTP, and {@code evaluation_result},
 * each finished question of a run, kept so that a revived or retried run resumes where it stopped.
 */
@Repository
class EvaluationStore {

    // Lenient: rows written by an older version may carry fields this one no longer knows.
    private static final JsonMapper JSON = JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();
    private static final String COLUMNS = "id, tenant_id, status, dataset, request::text, done, total, error, report::text, created_at, "
            + "started_at, finished_at";
    private final JdbcClient jdbc;

    EvaluationStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    record Stored(UUID id, UUID tenantId, String status, String dataset, JsonNode request, int done, int total, String error,
            JsonNode report, Instant createdAt, Instant startedAt, Instant finishedAt) {

        boolean finished() {
            return status.equals("DONE") || status.equals("FAILED");
        }

        StartEvaluation startRequest() {
            return JSON.treeToValue(request, StartEvaluation.class);
        }
    }

    void create(UUID id, UUID tenant, StartEvaluation request, int total) {
        jdbc.sql("INSERT INTO evaluation (id, tenant_id, status, dataset, request, total) VALUES (?, ?, 'QUEUED', ?, ?::jsonb, ?)")
                .params(id, tenant, request.dataset(), JSON.writeValueAsString(request), total).update();
    }

    void markRunning(UUID id) {
        jdbc.sql("UPDATE evaluation SET status = 'RUNNING', error = NULL, started_at = now(), updated_at = now() WHERE id = ?")
                .param(id).update();
    }

    /** Back in the queue (a retry, or a run stopped by a shutdown), counting the results it keeps. */
    void markQueued(UUID id) {
        jdbc.sql("""
                UPDATE evaluation SET status = 'QUEUED', error = NULL, report = NULL, finished_at = NULL, updated_at = now(),
                    done = (SELECT count(*) FROM evaluation_result r WHERE r.evaluation_id = evaluation.id)
                WHERE id = ?""").param(id).update();
    }

    void progress(UUID id, int done, int total) {
        jdbc.sql("UPDATE evaluation SET status = 'RUNNING', done = ?, total = ?, updated_at = now() WHERE id = ? AND status IN ('QUEUED', 'RUNNING')")
                .params(done, total, id).update();
    }

    /** Keeps one finished question; a second run of the same question (two replicas, briefly) keeps the first. */
    void saveResult(UUID id, ItemResult result) {
        jdbc.sql("""
                INSERT INTO evaluation_result (evaluation_id, item_id, strategy, result) VALUES (?, ?, ?, ?::jsonb)
                ON CONFLICT DO NOTHING""")
                .params(id, result.itemId(), result.strategy(), JSON.writeValueAsString(result)).update();
    }

    List<ItemResult> results(UUID id) {
        return jdbc.sql("SELECT result::text FROM evaluation_result WHERE evaluation_id = ?").param(id)
                .query((rs, i) -> JSON.readValue(rs.getString(1), ItemResult.class)).list();
    }

    void finish(UUID id, Report report) {
        jdbc.sql("UPDATE evaluation SET status = 'DONE', report = ?::jsonb, updated_at = now(), finished_at = now() WHERE id = ?")
                .params(JSON.writeValueAsString(report), id).update();
    }

    void fail(UUID id, String error) {
        jdbc.sql("UPDATE evaluation SET status = 'FAILED', error = ?, updated_at = now(), finished_at = now() WHERE id = ?")
                .params(error, id).update();
    }

    Optional<Stored> find(UUID tenant, UUID id) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM evaluation WHERE tenant_id = ? AND id = ?").params(tenant, id)
                .query(EvaluationStore::map).optional();
    }

    /** For the job, which runs outside any request and so for no current tenant. */
    Optional<Stored> find(UUID id) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM evaluation WHERE id = ?").param(id).query(EvaluationStore::map).optional();
    }

    /** Unfinished evaluations without a job, e.g. after a crash between the insert and the scheduling. */
    List<UUID> orphaned(String taskName) {
        return jdbc.sql("""
                SELECT e.id FROM evaluation e WHERE e.status IN ('QUEUED', 'RUNNING')
                  AND NOT EXISTS (SELECT 1 FROM scheduled_tasks t WHERE t.task_name = ? AND t.task_instance = e.id::text)""")
                .param(taskName).query(UUID.class).list();
    }

    private static Stored map(ResultSet rs, int row) throws SQLException {
        return new Stored(rs.getObject(1, UUID.class), rs.getObject(2, UUID.class), rs.getString(3), rs.getString(4),
                JSON.readTree(rs.getString(5)), rs.getInt(6), rs.getInt(7), rs.getString(8),
                rs.getString(9) == null ? null : JSON.readTree(rs.getString(9)), instant(rs.getTimestamp(10)),
                instant(rs.getTimestamp(11)), instant(rs.getTimestamp(12)));
    }

    private static Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }
}
