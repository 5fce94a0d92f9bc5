package io.lorekeeper.eval;

import static io.lorekeeper.eval.EvaluationStatus.DONE;
import static io.lorekeeper.eval.EvaluationStatus.FAILED;
import static io.lorekeeper.eval.EvaluationStatus.QUEUED;
import static io.lorekeeper.eval.EvaluationStatus.RUNNING;

import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.PreUpdate;
import jakarta.persistence.Table;
import jakarta.persistence.Version;

import org.hibernate.annotations.ColumnTransformer;

import io.lorekeeper.platform.IllegalTransitionException;
import io.lorekeeper.platform.JsonColumn;
import tools.jackson.databind.JsonNode;

/**
 * One evaluation run started over HTTP: QUEUED → RUNNING → DONE or FAILED; FAILED → QUEUED by a
 * retry, RUNNING → QUEUED when a shutdown stops it. Its finished questions live beside it in
 * {@code evaluation_result} (see {@link EvaluationStore}), so a re-queued run resumes.
 */
@Entity
@Table(name = "evaluation")
class Evaluation {

    @Id
    private UUID id;

    @Version
    private Long version;

    private UUID tenantId;

    @Enumerated(EnumType.STRING)
    private EvaluationStatus status;

    private String dataset;
    /** The start request as posted: the job loads its items from it on whichever replica runs it. */
    @Convert(converter = JsonColumn.class)
    @ColumnTransformer(write = "?::jsonb")
    private JsonNode request;

    private int done;
    private int total;
    private String error;

    @Convert(converter = JsonColumn.class)
    @ColumnTransformer(write = "?::jsonb")
    private JsonNode report;

    @Column(updatable = false)
    private Instant createdAt;

    private Instant updatedAt;
    private Instant startedAt;
    private Instant finishedAt;

    protected Evaluation() {
        // for JPA
    }

    static Evaluation queue(UUID id, UUID tenantId, String dataset, JsonNode request, int total) {
        Evaluation e = new Evaluation();
        e.id = id;
        e.tenantId = tenantId;
        e.status = QUEUED;
        e.dataset = dataset;
        e.request = request;
        e.total = total;
        e.createdAt = Instant.now();
        e.updatedAt = e.createdAt;
        return e;
    }

    /** Its job starts (or, revived after its replica died, starts again). */
    void start() {
        require("start", QUEUED, RUNNING);
        status = RUNNING;
        error = null;
        startedAt = Instant.now();
    }

    /**
     * Questions done so far. Reports from parallel questions may arrive out of order; the count
     * never goes back.
     */
    void progress(int doneNow, int totalNow) {
        require("record progress", RUNNING);
        done = Math.max(done, doneNow);
        total = totalNow;
    }

    void finish(JsonNode finalReport) {
        require("finish", RUNNING);
        status = DONE;
        report = finalReport;
        finishedAt = Instant.now();
    }

    void fail(String reason) {
        require("fail", QUEUED, RUNNING);
        status = FAILED;
        error = reason;
        finishedAt = Instant.now();
    }

    /** A user's retry of a failed run, which keeps its {@code kept} finished questions. */
    void retry(int kept) {
        require("retry", FAILED);
        queueAgain(kept);
    }

    /** A shutdown stopped the run; its job runs it again, resuming after its {@code kept} finished questions. */
    void suspend(int kept) {
        require("suspend", RUNNING);
        queueAgain(kept);
    }

    private void queueAgain(int kept) {
        status = QUEUED;
        error = null;
        report = null;
        finishedAt = null;
        done = kept;
    }

    @PreUpdate
    void touch() {
        updatedAt = Instant.now();
    }

    private void require(String transition, EvaluationStatus first, EvaluationStatus... more) {
        IllegalTransitionException.require("Evaluation", id, status, transition, first, more);
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

    EvaluationStatus status() {
        return status;
    }

    String dataset() {
        return dataset;
    }

    JsonNode request() {
        return request;
    }

    int done() {
        return done;
    }

    int total() {
        return total;
    }

    String error() {
        return error;
    }

    JsonNode report() {
        return report;
    }

    Instant createdAt() {
        return createdAt;
    }

    Instant updatedAt() {
        return updatedAt;
    }

    Instant startedAt() {
        return startedAt;
    }

    Instant finishedAt() {
        return finishedAt;
    }
}
