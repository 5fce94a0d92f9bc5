package io.lorekeeper.question;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import io.lorekeeper.question.QuestionApi.TraceEvent;
import io.lorekeeper.reasoning.Citation;
import io.lorekeeper.reasoning.StrategyResult;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** SQL for questions, their answers and trace events. */
@Repository
class QuestionStore {

    private final JdbcClient jdbc;
    private final JsonMapper json;

    QuestionStore(JdbcClient jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    record StoredQuestion(UUID id, UUID tenantId, List<UUID> documentIds, String question, String strategy,
            List<String> choices, Map<String, Object> options, QuestionStatus status, String answer, String mode,
            Integer choiceIndex, Double confidence, List<Citation> citations, boolean budgetLimited, String failureReason,
            Instant createdAt, Instant startedAt, Instant finishedAt, JsonNode waitingFor, JsonNode degraded) {
    }

    void insert(UUID id, UUID tenantId, List<UUID> documentIds, String question, String strategy, List<String> choices,
            Map<String, Object> options) {
        jdbc.sql("""
                INSERT INTO question (id, tenant_id, document_ids, question, strategy, choices, options, status)
                VALUES (?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, 'QUEUED')""")
                .params(id, tenantId, documentIds.toArray(UUID[]::new), question, strategy,
                        choices == null ? null : json.writeValueAsString(choices), json.writeValueAsString(options))
                .update();
    }

    Optional<StoredQuestion> find(UUID tenantId, UUID id) {
        return jdbc.sql("SELECT * FROM question WHERE tenant_id = ? AND id = ?").params(tenantId, id).query(this::map).optional();
    }

    Optional<StoredQuestion> find(UUID id) {
        return jdbc.sql("SELECT * FROM question WHERE id = ?").param(id).query(this::map).optional();
    }

    Optional<QuestionStatus> status(UUID id) {
        return jdbc.sql("SELECT status FROM question WHERE id = ?").param(id).query(String.class).optional()
                .map(QuestionStatus::valueOf);
    }

    void markRunning(UUID id) {
        jdbc.sql("UPDATE question SET status = 'RUNNING', started_at = now(), failure_reason = NULL, waiting_for = NULL WHERE id = ?")
                .param(id).update();
    }

    /** Queued, waiting for the named memories to be built. */
    void markWaiting(UUID id, Object waitingFor) {
        jdbc.sql("UPDATE question SET status = 'QUEUED', waiting_for = ?::jsonb WHERE id = ?")
                .params(json.writeValueAsString(waitingFor), id).update();
    }

    void markDegraded(UUID id, Object degraded) {
        jdbc.sql("UPDATE question SET degraded = ?::jsonb WHERE id = ?").params(json.writeValueAsString(degraded), id).update();
    }

    void markQueued(UUID id) {
        jdbc.sql("""
                UPDATE question SET status = 'QUEUED', answer = NULL, mode = NULL, choice_index = NULL, confidence = NULL,
                    citations = NULL, budget_limited = false, failure_reason = NULL, started_at = NULL, finished_at = NULL,
                    waiting_for = NULL, degraded = NULL
                WHERE id = ?""").param(id).update();
    }

    void complete(UUID id, StrategyResult result) {
        jdbc.sql("""
                UPDATE question SET status = 'DONE', answer = ?, mode = ?, choice_index = ?, confidence = ?, citations = ?::jsonb,
                    budget_limited = ?, finished_at = now() WHERE id = ?""")
                .params(result.answer(), result.mode(), result.choiceIndex(), result.confidence(),
                        json.writeValueAsString(result.citations()), result.budgetLimited(), id)
                .update();
    }

    void fail(UUID id, String reason) {
        jdbc.sql("UPDATE question SET status = 'FAILED', failure_reason = ?, finished_at = now() WHERE id = ?")
                .params(reason, id).update();
    }

    int nextTraceSeq(UUID questionId) {
        return jdbc.sql("SELECT coalesce(max(seq), 0) + 1 FROM trace_event WHERE question_id = ?").param(questionId)
                .query(Integer.class).single();
    }

    void appendTrace(UUID questionId, int seq, String type, String payloadJson) {
        jdbc.sql("INSERT INTO trace_event (question_id, seq, type, payload) VALUES (?, ?, ?, ?::jsonb)")
                .params(questionId, seq, type, payloadJson).update();
    }

    List<TraceEvent> trace(UUID questionId, int afterSeq) {
        return jdbc.sql("SELECT seq, type, at, payload::text AS payload FROM trace_event WHERE question_id = ? AND seq > ? ORDER BY seq")
                .params(questionId, afterSeq)
                .query((rs, n) -> new TraceEvent(rs.getInt("seq"), rs.getString("type"), instant(rs.getTimestamp("at")),
                        json.readTree(rs.getString("payload"))))
                .list();
    }

    /** Questions that should be running but have no scheduled job (e.g. a crash between commit and scheduling). */
    List<UUID> orphaned(String taskName) {
        return jdbc.sql("""
                SELECT q.id FROM question q WHERE q.status IN ('QUEUED', 'RUNNING')
                  AND NOT EXISTS (SELECT 1 FROM scheduled_tasks t WHERE t.task_name = ? AND t.task_instance = q.id::text)""")
                .param(taskName).query(UUID.class).list();
    }

    private StoredQuestion map(ResultSet rs, int n) throws SQLException {
        UUID[] docs = (UUID[]) rs.getArray("document_ids").getArray();
        String choices = rs.getString("choices");
        String citations = rs.getString("citations");
        double confidence = rs.getDouble("confidence");
        boolean noConfidence = rs.wasNull();
        int choiceIndex = rs.getInt("choice_index");
        boolean noChoice = rs.wasNull();
        return new StoredQuestion(rs.getObject("id", UUID.class), rs.getObject("tenant_id", UUID.class), Arrays.asList(docs),
                rs.getString("question"), rs.getString("strategy"),
                choices == null ? null : json.readValue(choices, new TypeReference<List<String>>() { }),
                json.readValue(rs.getString("options"), new TypeReference<Map<String, Object>>() { }),
                QuestionStatus.valueOf(rs.getString("status")), rs.getString("answer"), rs.getString("mode"),
                noChoice ? null : choiceIndex, noConfidence ? null : confidence,
                citations == null ? null : json.readValue(citations, new TypeReference<List<Citation>>() { }),
                rs.getBoolean("budget_limited"), rs.getString("failure_reason"),
                instant(rs.getTimestamp("created_at")), instant(rs.getTimestamp("started_at")), instant(rs.getTimestamp("finished_at")),
                jsonOrNull(rs.getString("waiting_for")), jsonOrNull(rs.getString("degraded")));
    }

    private JsonNode jsonOrNull(String text) {
        return text == null ? null : json.readTree(text);
    }

    private static Instant instant(Timestamp ts) {
        return ts == null ? null : ts.toInstant();
    }
}
