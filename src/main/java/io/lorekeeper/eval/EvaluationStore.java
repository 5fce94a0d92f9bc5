package io.lorekeeper.eval;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The {@code evaluation} table: one row per run started over HTTP. */
@Repository
class EvaluationStore {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final JdbcClient jdbc;

    EvaluationStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    record Stored(UUID id, String status, String dataset, JsonNode request, int done, int total, String error, JsonNode report,
            Instant createdAt, Instant finishedAt) {
    }

    void create(UUID id, UUID tenant, String dataset, Object request) {
        jdbc.sql("INSERT INTO evaluation (id, tenant_id, status, dataset, request) VALUES (?, ?, 'QUEUED', ?, ?::jsonb)")
                .params(id, tenant, dataset, JSON.writeValueAsString(request)).update();
    }

    void progress(UUID id, int done, int total) {
        jdbc.sql("UPDATE evaluation SET status = 'RUNNING', done = ?, total = ?, updated_at = now() WHERE id = ? AND status IN ('QUEUED', 'RUNNING')")
                .params(done, total, id).update();
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
        return jdbc.sql("""
                SELECT id, status, dataset, request::text, done, total, error, report::text, created_at, finished_at
                FROM evaluation WHERE tenant_id = ? AND id = ?""")
                .params(tenant, id)
                .query((rs, i) -> new Stored(rs.getObject(1, UUID.class), rs.getString(2), rs.getString(3), JSON.readTree(rs.getString(4)),
                        rs.getInt(5), rs.getInt(6), rs.getString(7), rs.getString(8) == null ? null : JSON.readTree(rs.getString(8)),
                        instant(rs.getTimestamp(9)), instant(rs.getTimestamp(10))))
                .optional();
    }

    private static Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }
}
