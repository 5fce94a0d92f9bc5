package io.lorekeeper.document.lifecycle;

import static io.lorekeeper.document.StageStatus.DONE;
import static io.lorekeeper.document.StageStatus.FAILED;
import static io.lorekeeper.document.StageStatus.PENDING;
import static io.lorekeeper.document.StageStatus.RUNNING;
import static io.lorekeeper.document.StageStatus.SKIPPED;

import java.io.Serializable;
import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;

import org.hibernate.annotations.DynamicUpdate;

import io.lorekeeper.document.StageStatus;
import io.lorekeeper.platform.IllegalTransitionException;

/**
 * One ingestion stage of a document: part of the {@link Document} aggregate, changed only through
 * it, so that every change bumps the document's version. A run starts from PENDING (or FAILED when
 * its retry is due, or RUNNING when a job revived after its replica died runs it again) and ends
 * DONE, FAILED or back to PENDING (waiting out a rate limit); a stage that does not apply is
 * SKIPPED. A reset (reindex, appended sessions) starts a new generation, so a run that began before
 * it cannot record its outcome over the newer request.
 *
 * <p>Dynamic update: a change writes only the columns it changed, so it never writes back a stale
 * {@code done}/{@code total} over the progress a running stage records meanwhile (a bulk UPDATE
 * outside the aggregate, see {@code ingestion.StageProgress}).
 */
@Entity
@Table(name = "ingestion_stage")
@IdClass(DocumentStage.Key.class)
@DynamicUpdate
public class DocumentStage {

    record Key(UUID documentId, String stage) implements Serializable {}

    @Id
    @Column(name = "document_id") // named as the aggregate's join column names it: one column, not two
    private UUID documentId;

    @Id
    private String stage;

    private int position;
    private String kind;

    @Enumerated(EnumType.STRING)
    private StageStatus status;

    private int done;
    private int total;
    private String message;
    private int attempts;
    private Instant retryAt;
    private int generation;
    private boolean requested;

    /**
     * Items the latest run left without output: written beside the aggregate
     * ({@code ingestion.StageProgress}), read here only to know
     * which DONE stages have gaps for a resume to retry.
     */
    @Column(insertable = false, updatable = false)
    private int failed;

    @Column(name = "updated_at")
    private Instant updatedAt;

    protected DocumentStage() {
        // for JPA
    }

    DocumentStage(UUID documentId, String stage, int position, String kind) {
        this.documentId = documentId;
        this.stage = stage;
        this.position = position;
        this.kind = kind;
        this.status = PENDING;
        this.updatedAt = Instant.now();
    }

    /** Keeps the stage's place and kind as the running service defines them; true when either changed. */
    boolean define(int position, String kind) {
        if (this.position == position && this.kind.equals(kind)) {
            return false;
        }
        this.position = position;
        this.kind = kind;
        touch();
        return true;
    }

    /** A run begins: counts the attempt and returns the generation whose outcome it may record. */
    int start() {
        require("start", PENDING, FAILED, RUNNING);
        status = RUNNING;
        message = null;
        retryAt = null;
        attempts++;
        touch();
        return generation;
    }

    /**
     * Records how the run of {@code generation} ended: DONE, FAILED (with a retry time, or none when
     * its attempts are spent) or PENDING (waiting out a rate limit). False, and nothing recorded,
     * when the stage was reset while it ran: the newer request stands and the stage runs again.
     */
    boolean finish(int generation, StageStatus outcome, String message, Instant retryAt) {
        if (generation != this.generation) {
            return false;
        }
        if (outcome != DONE && outcome != FAILED && outcome != PENDING) {
            throw new IllegalArgumentException("a run ends DONE, FAILED or PENDING, not " + outcome);
        }
        require("finish", RUNNING);
        status = outcome;
        this.message = message;
        this.retryAt = retryAt;
        touch();
        return true;
    }

    /** The stage does not apply to this document (or is built on demand only); the reason says why. */
    void skip(String reason) {
        require("skip", PENDING, FAILED, RUNNING);
        status = SKIPPED;
        message = reason;
        touch();
    }

    /**
     * Rebuilt from scratch (a reindex naming it): a stage still running is refused, its run would
     * write into what the rebuild deletes. {@code requested} marks an on-demand stage someone asked for.
     */
    void rebuild(boolean requested) {
        requireRebuildable();
        status = PENDING;
        done = 0;
        this.requested = this.requested || requested;
        fresh();
    }

    void requireRebuildable() {
        require("rebuild", PENDING, DONE, FAILED, SKIPPED);
    }

    /**
     * Runs again over what it has not seen yet (sessions were appended): its output and progress
     * stay. Legal from every state: a run still going on belongs to the old generation and will
     * not record its outcome.
     */
    void resume() {
        status = PENDING;
        fresh();
    }

    /**
     * A failed enrichment gets a fresh set of attempts, due now, and a finished one whose latest run left
     * items without output runs again for those gaps (its output stays, so only the gaps are tried);
     * true when this one did.
     */
    boolean retryIfFailed() {
        if (!enrichment() || !(status == FAILED || (status == DONE && failed > 0))) {
            return false;
        }
        status = PENDING;
        fresh();
        return true;
    }

    private void fresh() {
        message = null;
        attempts = 0;
        retryAt = null;
        generation++;
        touch();
    }

    private void touch() {
        updatedAt = Instant.now();
    }

    private void require(String transition, StageStatus first, StageStatus... more) {
        IllegalTransitionException.require("Stage", documentId + "/" + stage, status, transition, first, more);
    }

    boolean enrichment() {
        return "enrichment".equals(kind);
    }

    public String name() {
        return stage;
    }

    int position() {
        return position;
    }

    public StageStatus status() {
        return status;
    }

    int generation() {
        return generation;
    }

    int attempts() {
        return attempts;
    }

    Instant retryAt() {
        return retryAt;
    }

    String message() {
        return message;
    }

    boolean requested() {
        return requested;
    }

    int done() {
        return done;
    }

    int failed() {
        return failed;
    }

    StageState state() {
        return new StageState(
                documentId,
                stage,
                kind,
                status,
                done,
                total,
                message,
                attempts,
                retryAt,
                generation,
                requested,
                failed,
                java.util.List.of());
    }
}
