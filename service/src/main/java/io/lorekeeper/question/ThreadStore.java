package io.lorekeeper.question;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Threads and the turns asked in them: a thread is a row of its tenant's; its questions are the
 * question rows that name it, in the order they were asked. Plain SQL: a thread has no state to move.
 */
@Repository
class ThreadStore {

    private final JdbcClient jdbc;

    ThreadStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    record StoredThread(UUID id, UUID tenantId, String title, Instant createdAt, int questions) {}

    /** One earlier question of a thread and its answer, as the rewrite of a follow-up reads it. */
    record Turn(String question, String answer) {}

    StoredThread create(UUID tenantId, String title) {
        UUID id = UUID.randomUUID();
        jdbc.sql("INSERT INTO question_thread (id, tenant_id, title) VALUES (?, ?, ?)")
                .params(id, tenantId, title)
                .update();
        return find(tenantId, id).orElseThrow();
    }

    Optional<StoredThread> find(UUID tenantId, UUID id) {
        return jdbc.sql("""
                        SELECT t.id, t.tenant_id, t.title, t.created_at,
                               (SELECT count(*) FROM question q WHERE q.thread_id = t.id) AS questions
                        FROM question_thread t WHERE t.id = ? AND t.tenant_id = ?""").params(id, tenantId).query(ThreadStore::thread).optional();
    }

    /** The tenant's threads, newest first. */
    List<StoredThread> list(UUID tenantId, int limit) {
        return jdbc.sql("""
                        SELECT t.id, t.tenant_id, t.title, t.created_at,
                               (SELECT count(*) FROM question q WHERE q.thread_id = t.id) AS questions
                        FROM question_thread t WHERE t.tenant_id = ? ORDER BY t.created_at DESC, t.id LIMIT ?""").params(tenantId, limit).query(ThreadStore::thread).list();
    }

    /** Deletes the thread and, by the foreign key's cascade, its questions and their traces. */
    boolean delete(UUID tenantId, UUID id) {
        return jdbc.sql("DELETE FROM question_thread WHERE id = ? AND tenant_id = ?")
                        .params(id, tenantId)
                        .update()
                > 0;
    }

    /** The thread's questions, in the order they were asked. */
    List<UUID> questionIds(UUID threadId) {
        return jdbc.sql("SELECT id FROM question WHERE thread_id = ? ORDER BY created_at, id")
                .param(threadId)
                .query(UUID.class)
                .list();
    }

    /** The documents of the thread's latest question, for a follow-up that names none. */
    Optional<List<UUID>> lastDocuments(UUID threadId) {
        return jdbc.sql("SELECT document_ids FROM question WHERE thread_id = ? ORDER BY created_at DESC, id LIMIT 1")
                .param(threadId)
                .query((rs, n) -> List.of((UUID[]) rs.getArray(1).getArray()))
                .optional();
    }

    /**
     * The answered questions asked in the thread before {@code before}, at most {@code max} of the latest,
     * oldest first; each as the strategy was asked it (a follow-up's standalone form).
     */
    List<Turn> earlierTurns(UUID threadId, Instant before, int max) {
        List<Turn> turns = new ArrayList<>(jdbc.sql("""
                        SELECT coalesce(standalone_question, question) AS asked, answer FROM question
                        WHERE thread_id = ? AND created_at < ? AND status = 'DONE' AND answer IS NOT NULL
                        ORDER BY created_at DESC, id LIMIT ?""")
                .params(threadId, Timestamp.from(before), max)
                .query((rs, n) -> new Turn(rs.getString("asked"), rs.getString("answer")))
                .list());
        Collections.reverse(turns);
        return turns;
    }

    private static StoredThread thread(java.sql.ResultSet rs, int row) throws java.sql.SQLException {
        return new StoredThread(
                rs.getObject("id", UUID.class),
                rs.getObject("tenant_id", UUID.class),
                rs.getString("title"),
                rs.getTimestamp("created_at").toInstant(),
                rs.getInt("questions"));
    }
}
