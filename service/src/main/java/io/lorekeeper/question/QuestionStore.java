package io.lorekeeper.question;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import io.lorekeeper.platform.Transitions;
import io.lorekeeper.question.QuestionApi.TraceEvent;
import io.lorekeeper.strategy.AnswerKind;
import io.lorekeeper.strategy.Citation;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Questions as their readers see them, read from the {@link Question} aggregates, and the changes
 * jobs make to them ({@link #change}); trace events, append-only rows written while a strategy
 * runs and read back in ranges, stay plain SQL.
 */
@Repository
class QuestionStore {

    private final JdbcClient jdbc;
    private final JsonMapper json;
    private final QuestionRepository questions;
    private final Transitions transitions;
    private final FinishedQuestions finished;

    /** How often a waiting request reads the status of a question another replica may finish. */
    private static final java.time.Duration POLL = java.time.Duration.ofMillis(100);

    QuestionStore(
            JdbcClient jdbc,
            JsonMapper json,
            QuestionRepository questions,
            Transitions transitions,
            FinishedQuestions finished) {
        this.jdbc = jdbc;
        this.json = json;
        this.questions = questions;
        this.transitions = transitions;
        this.finished = finished;
    }

    record StoredQuestion(
            UUID id,
            UUID tenantId,
            List<UUID> documentIds,
            String question,
            String strategy,
            List<String> choices,
            Map<String, Object> options,
            QuestionStatus status,
            String answer,
            String mode,
            AnswerKind answerKind,
            Integer choiceIndex,
            Double confidence,
            List<Citation> citations,
            boolean budgetLimited,
            String failureReason,
            Instant createdAt,
            Instant startedAt,
            Instant finishedAt,
            List<MemoryGap> waitingFor,
            List<Degradation> degraded,
            UUID threadId,
            String standaloneQuestion,
            String rewriteNote) {}

    Optional<StoredQuestion> find(UUID tenantId, UUID id) {
        return questions.findByIdAndTenantId(id, tenantId).map(this::stored);
    }

    /**
     * The tenant's question once it has finished, or as it stands when {@code wait} is over; empty
     * when there is none. Woken at once when this replica finishes it ({@link FinishedQuestions});
     * otherwise its status is read every 100 ms, since whichever replica runs the job writes it.
     */
    Optional<StoredQuestion> awaitFinished(UUID tenantId, UUID id, java.time.Duration wait)
            throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        CompletableFuture<StoredQuestion> signal = finished.watch(id);
        try {
            // the status is one indexed column; the whole question (JSON columns and all) is read once, at the
            // end, unless this replica finished it and handed it over (it is the tenant's: its status was read)
            Optional<QuestionStatus> status = status(tenantId, id);
            while (status.isPresent() && !status.get().isFinished()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                try {
                    return Optional.of(signal.get(Math.min(left, POLL.toNanos()), TimeUnit.NANOSECONDS));
                } catch (TimeoutException | ExecutionException e) {
                    // not finished here (yet): the status says whether another replica finished it
                }
                status = status(tenantId, id);
            }
            return status.isEmpty() ? Optional.empty() : find(tenantId, id);
        } finally {
            finished.unwatch(id, signal);
        }
    }

    Optional<StoredQuestion> find(UUID id) {
        return questions.findById(id).map(this::stored);
    }

    Optional<QuestionStatus> status(UUID id) {
        return jdbc.sql("SELECT status FROM question WHERE id = ?")
                .param(id)
                .query(String.class)
                .optional()
                .map(QuestionStatus::valueOf);
    }

    private Optional<QuestionStatus> status(UUID tenantId, UUID id) {
        return jdbc.sql("SELECT status FROM question WHERE id = ? AND tenant_id = ?")
                .params(id, tenantId)
                .query(String.class)
                .optional()
                .map(QuestionStatus::valueOf);
    }

    /**
     * Applies a job's transition in a transaction of its own, again on the fresh state when another
     * writer got there first.
     *
     * @throws io.lorekeeper.platform.IllegalTransitionException when the question's state refuses it
     */
    Optional<StoredQuestion> change(UUID id, Consumer<Question> transition) {
        Optional<StoredQuestion> changed =
                transitions.apply(questions, id, transition).map(this::stored);
        if (changed.isPresent() && changed.get().status().isFinished()) {
            finished.finished(changed.get());
        }
        return changed;
    }

    int nextTraceSeq(UUID questionId) {
        return jdbc.sql("SELECT coalesce(max(seq), 0) + 1 FROM trace_event WHERE question_id = ?")
                .param(questionId)
                .query(Integer.class)
                .single();
    }

    /** Where the last run of the question began: the seq of its last RUNNING status event, or empty before any run. */
    Optional<Integer> lastRunStart(UUID questionId) {
        return jdbc.sql("""
                        SELECT max(seq) FROM trace_event
                        WHERE question_id = ? AND type = 'run.status' AND payload->>'status' = 'RUNNING'""")
                .param(questionId)
                .query((rs, n) -> (Integer) rs.getObject(1))
                .optional();
    }

    void appendTrace(UUID questionId, int seq, String type, String payloadJson) {
        jdbc.sql("INSERT INTO trace_event (question_id, seq, type, payload) VALUES (?, ?, ?, ?::jsonb)")
                .params(questionId, seq, type, payloadJson)
                .update();
    }

    List<TraceEvent> trace(UUID questionId, int afterSeq) {
        return jdbc.sql(
                        "SELECT seq, type, at, payload::text AS payload FROM trace_event WHERE question_id = ? AND seq > ? ORDER BY seq")
                .params(questionId, afterSeq)
                .query((rs, n) -> new TraceEvent(
                        rs.getInt("seq"),
                        rs.getString("type"),
                        instant(rs.getTimestamp("at")),
                        json.readTree(rs.getString("payload"))))
                .list();
    }

    private StoredQuestion stored(Question q) {
        return new StoredQuestion(
                q.id(),
                q.tenantId(),
                q.documentIds(),
                q.question(),
                q.strategy(),
                q.choices() == null ? null : json.convertValue(q.choices(), new TypeReference<List<String>>() {}),
                q.options() == null
                        ? Map.of()
                        : json.convertValue(q.options(), new TypeReference<Map<String, Object>>() {}),
                q.status(),
                q.answer(),
                q.mode(),
                q.answerKind(),
                q.choiceIndex(),
                q.confidence(),
                q.citations(),
                q.budgetLimited(),
                q.failureReason(),
                q.createdAt(),
                q.startedAt(),
                q.finishedAt(),
                listOf(q.waitingFor(), MemoryGap.class),
                listOf(q.degraded(), Degradation.class),
                q.threadId(),
                q.standaloneQuestion(),
                q.rewriteNote());
    }

    /** A stored JSON list as records, or null when there is none. */
    private <T> List<T> listOf(JsonNode list, Class<T> type) {
        return list == null || list.isNull()
                ? null
                : json.convertValue(list, json.getTypeFactory().constructCollectionType(List.class, type));
    }

    private static Instant instant(Timestamp ts) {
        return ts == null ? null : ts.toInstant();
    }
}
