package io.lorekeeper.question;

import static io.lorekeeper.question.QuestionStatus.DONE;
import static io.lorekeeper.question.QuestionStatus.FAILED;
import static io.lorekeeper.question.QuestionStatus.QUEUED;
import static io.lorekeeper.question.QuestionStatus.RUNNING;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;

import org.hibernate.annotations.ColumnTransformer;

import io.lorekeeper.platform.IllegalTransitionException;
import io.lorekeeper.platform.JsonColumn;
import io.lorekeeper.strategy.AnswerKind;
import io.lorekeeper.strategy.Citation;
import io.lorekeeper.strategy.StrategyResult;
import tools.jackson.databind.JsonNode;

/**
 * A question and its answer: the aggregate whose state its job moves on. Every change goes through
 * a method that knows from which states it is legal (QUEUED → RUNNING → DONE or FAILED, FAILED →
 * QUEUED by a retry, RUNNING → QUEUED when a rate limit re-queues it) and refuses the others; the
 * version makes two writers that read the same state conflict instead of overwriting each other.
 */
@Entity
@Table(name = "question")
class Question {

    @Id
    private UUID id;

    @Version
    private Long version;

    private UUID tenantId;
    private UUID[] documentIds;
    private String question;
    private String strategy;

    @Convert(converter = JsonColumn.class)
    @ColumnTransformer(write = "?::jsonb")
    private JsonNode choices;

    @Convert(converter = JsonColumn.class)
    @ColumnTransformer(write = "?::jsonb")
    private JsonNode options;

    @Enumerated(EnumType.STRING)
    private QuestionStatus status;

    private String answer;
    private String mode;

    @Enumerated(EnumType.STRING)
    private AnswerKind answerKind;

    private Integer choiceIndex;
    private Double confidence;

    @Convert(converter = CitationsColumn.class)
    @ColumnTransformer(write = "?::jsonb")
    private List<Citation> citations;

    private boolean budgetLimited;
    private String failureReason;

    @Column(updatable = false)
    private Instant createdAt;

    private Instant startedAt;
    private Instant finishedAt;
    /** The memories a QUEUED question waits for, as shown to its user. */
    @Convert(converter = JsonColumn.class)
    @ColumnTransformer(write = "?::jsonb")
    private JsonNode waitingFor;
    /** Optional memories its strategy ran without. */
    @Convert(converter = JsonColumn.class)
    @ColumnTransformer(write = "?::jsonb")
    private JsonNode degraded;

    /** The thread it was asked in, or null. */
    @Column(updatable = false)
    private UUID threadId;
    /** A follow-up rewritten to stand on its own, as the strategy was asked it. */
    private String standaloneQuestion;
    /** Why a follow-up was answered as asked (no model, nothing earlier, a failed rewrite), or null. */
    private String rewriteNote;

    protected Question() {
        // for JPA
    }

    /** A new question, QUEUED for its job. */
    static Question ask(
            UUID id,
            UUID tenantId,
            List<UUID> documentIds,
            String question,
            String strategy,
            JsonNode choices,
            JsonNode options) {
        return ask(id, tenantId, documentIds, question, strategy, choices, options, null);
    }

    /** A new question in a thread (or none), QUEUED for its job. */
    static Question ask(
            UUID id,
            UUID tenantId,
            List<UUID> documentIds,
            String question,
            String strategy,
            JsonNode choices,
            JsonNode options,
            UUID threadId) {
        Question q = new Question();
        q.threadId = threadId;
        q.id = id;
        q.tenantId = tenantId;
        q.documentIds = documentIds.toArray(UUID[]::new);
        q.question = question;
        q.strategy = strategy;
        q.choices = choices;
        q.options = options;
        q.status = QUEUED;
        q.createdAt = now();
        return q;
    }

    /** Its job starts the strategy; RUNNING again when a job revived after its replica died runs it anew. */
    void start() {
        require("start", QUEUED, RUNNING);
        status = RUNNING;
        startedAt = now();
        failureReason = null;
        waitingFor = null;
    }

    /** Back to QUEUED until the named memories are built. */
    void waitFor(JsonNode memories) {
        require("wait for memories", QUEUED, RUNNING);
        status = QUEUED;
        waitingFor = memories;
    }

    /** The strategy runs without the named optional memories, and the answer will say so. */
    /** Adds to the answer's {@code degraded} list (missing memories, a fallback); earlier entries stay. */
    void degrade(JsonNode missing) {
        require("run degraded", RUNNING);
        if (degraded instanceof tools.jackson.databind.node.ArrayNode earlier
                && missing instanceof tools.jackson.databind.node.ArrayNode more) {
            tools.jackson.databind.node.ArrayNode both = earlier.deepCopy();
            both.addAll(more);
            degraded = both;
        } else {
            degraded = missing;
        }
    }

    /**
     * What the strategy of a follow-up is asked: {@code standalone} when the earlier turns rewrote it,
     * else the question as asked, with {@code note} saying why it was not rewritten.
     */
    void readAs(String standalone, String note) {
        require("read a follow-up", RUNNING);
        standaloneQuestion = standalone;
        rewriteNote = note;
    }

    /** A long rate limit stopped the run: QUEUED for its job's next attempt. */
    void requeue() {
        require("requeue", RUNNING);
        reset();
    }

    /** A user's retry of a failed question. */
    void retry() {
        require("retry", FAILED);
        reset();
    }

    void complete(StrategyResult result) {
        require("complete", RUNNING);
        status = DONE;
        answer = result.answer();
        mode = result.mode();
        answerKind = result.kind();
        choiceIndex = result.choiceIndex();
        confidence = result.confidence();
        citations = List.copyOf(result.citations());
        budgetLimited = result.budgetLimited();
        finishedAt = now();
    }

    void fail(String reason) {
        require("fail", QUEUED, RUNNING);
        status = FAILED;
        failureReason = reason;
        finishedAt = now();
    }

    private void reset() {
        status = QUEUED;
        answer = null;
        mode = null;
        answerKind = null;
        choiceIndex = null;
        confidence = null;
        citations = null;
        budgetLimited = false;
        failureReason = null;
        startedAt = null;
        finishedAt = null;
        waitingFor = null;
        degraded = null;
    }

    private void require(String transition, QuestionStatus first, QuestionStatus... more) {
        IllegalTransitionException.require("Question", id, status, transition, first, more);
    }

    UUID id() {
        return id;
    }

    Long version() {
        return version;
    }

    UUID tenantId() {
        return tenantId;
    }

    List<UUID> documentIds() {
        return List.of(documentIds);
    }

    String question() {
        return question;
    }

    String strategy() {
        return strategy;
    }

    JsonNode choices() {
        return choices;
    }

    JsonNode options() {
        return options;
    }

    QuestionStatus status() {
        return status;
    }

    String answer() {
        return answer;
    }

    String mode() {
        return mode;
    }

    AnswerKind answerKind() {
        return answerKind;
    }

    Integer choiceIndex() {
        return choiceIndex;
    }

    Double confidence() {
        return confidence;
    }

    List<Citation> citations() {
        return citations;
    }

    boolean budgetLimited() {
        return budgetLimited;
    }

    String failureReason() {
        return failureReason;
    }

    Instant createdAt() {
        return createdAt;
    }

    Instant startedAt() {
        return startedAt;
    }

    Instant finishedAt() {
        return finishedAt;
    }

    JsonNode waitingFor() {
        return waitingFor;
    }

    JsonNode degraded() {
        return degraded;
    }

    UUID threadId() {
        return threadId;
    }

    String standaloneQuestion() {
        return standaloneQuestion;
    }

    String rewriteNote() {
        return rewriteNote;
    }

    /** Microseconds, as PostgreSQL keeps them: a finished question handed to its waiters reads as a later load will. */
    private static Instant now() {
        return Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MICROS);
    }
}
