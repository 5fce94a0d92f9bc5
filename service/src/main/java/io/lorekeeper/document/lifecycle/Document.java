package io.lorekeeper.document.lifecycle;

import static io.lorekeeper.document.DocumentStatus.FAILED;
import static io.lorekeeper.document.DocumentStatus.INGESTING;
import static io.lorekeeper.document.DocumentStatus.QUEUED;
import static io.lorekeeper.document.DocumentStatus.READY;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import jakarta.persistence.CascadeType;
import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OrderBy;
import jakarta.persistence.Table;
import jakarta.persistence.Version;

import org.hibernate.annotations.ColumnTransformer;
import org.hibernate.annotations.DynamicUpdate;
import org.springframework.data.domain.AbstractAggregateRoot;

import io.lorekeeper.document.DocumentDeleted;
import io.lorekeeper.document.DocumentKind;
import io.lorekeeper.document.DocumentReady;
import io.lorekeeper.document.DocumentStatus;
import io.lorekeeper.document.MemoryBuilt;
import io.lorekeeper.document.StageStatus;
import io.lorekeeper.platform.ApiProblem;
import io.lorekeeper.platform.IllegalTransitionException;
import io.lorekeeper.platform.JsonColumn;
import tools.jackson.databind.JsonNode;

/**
 * A document and its ingestion stages: the aggregate its ingestion job and its requests (append,
 * reindex, delete) move on. The document is QUEUED for its job, INGESTING while the retrieval
 * stages run, then READY, or FAILED with the reason when a retrieval stage failed; appended
 * sessions and a reindex queue a READY or FAILED document again. Every change goes through a
 * method that knows from which states it is legal and refuses the others.
 *
 * <p>The stages are child entities of the aggregate rather than an aggregate of their own: the
 * transitions that matter span both (appending sessions queues the document and resets every
 * stage; a reindex resets stages and may queue the document; a retrieval stage failing fails the
 * document), and one version, the document's, bumped by any change to either, makes a job and a
 * request that read the same document conflict instead of overwriting each other. They are not
 * an element collection because each stage row is updated on its own and keeps its own key.
 *
 * <p>Not mapped: the counts kept by bulk SQL from the chunks ({@code chunk_count},
 * {@code token_count}, {@code term_total}) and the stored size a trigger keeps ({@code text_bytes});
 * dynamic update keeps a transition to the columns it changed.
 */
@Entity
@Table(name = "document")
@DynamicUpdate
public class Document extends AbstractAggregateRoot<Document> {

    @Id
    private UUID id;

    @Version
    private Long version;

    @Column(updatable = false)
    private UUID tenantId;

    private String title;

    @Enumerated(EnumType.STRING)
    @Column(updatable = false)
    private DocumentKind kind;

    private String profile;

    @Convert(converter = JsonColumn.class)
    @ColumnTransformer(write = "?::jsonb")
    private JsonNode metadata;

    @Enumerated(EnumType.STRING)
    private DocumentStatus status;

    private String failureReason;
    private String contentHash;
    private int charCount;

    @Column(updatable = false)
    private Instant createdAt;

    private Instant updatedAt;
    // The stage rows carry document_id in their own key: the join column is theirs to write. Loaded
    // lazily, so possibly from a later commit than the root; then the root's version is the older
    // one, and a write based on them conflicts and is applied again: at worst a retry, never a loss.
    @OneToMany(cascade = CascadeType.ALL, orphanRemoval = true)
    @JoinColumn(name = "document_id", insertable = false, updatable = false)
    @OrderBy("position")
    private List<DocumentStage> stages = new ArrayList<>();

    protected Document() {
        // for JPA
    }

    /** A new document, QUEUED for its ingestion job, with a PENDING row for every stage. */
    static Document create(
            UUID id,
            UUID tenantId,
            String title,
            DocumentKind kind,
            String profile,
            JsonNode metadata,
            String contentHash,
            int charCount,
            List<StageDef> stages) {
        Document d = new Document();
        d.id = id;
        d.tenantId = tenantId;
        d.title = title;
        d.kind = kind;
        d.profile = profile;
        d.metadata = metadata;
        d.status = QUEUED;
        d.contentHash = contentHash;
        d.charCount = charCount;
        d.createdAt = Instant.now();
        d.updatedAt = d.createdAt;
        d.defineStages(stages);
        return d;
    }

    /**
     * Adds rows for stages that appeared since the document was created (new stage beans) and keeps
     * kinds and order current; changes nothing (and bumps no version) when they already are.
     */
    public void defineStages(List<StageDef> definitions) {
        for (int i = 0; i < definitions.size(); i++) {
            StageDef def = definitions.get(i);
            Optional<DocumentStage> known = find(def.name());
            if (known.isEmpty()) {
                stages.add(new DocumentStage(id, def.name(), i, def.kind()));
                touch();
            } else if (known.get().define(i, def.kind())) {
                touch();
            }
        }
    }

    /**
     * Refuses (409 {@code ingestion-running}) a request that must wait for the running ingestion to end:
     * a reindex, an append, an on-demand build. {@code then} tells the client when to ask again.
     */
    public void requireNotIngesting(String then) {
        if (status == QUEUED || status == INGESTING) {
            throw ApiProblem.conflict(
                    "ingestion-running", "Ingestion running", "document " + id + " is being ingested; " + then, null);
        }
    }

    /** Its job runs the retrieval stages: from QUEUED, again when revived, or for a READY document missing a new stage. */
    public void startIngestion() {
        require("start ingestion", QUEUED, INGESTING, READY);
        become(INGESTING, null);
    }

    /** Every retrieval stage is done: searchable and answerable. Tells the other modules. */
    public void ready() {
        require("become ready", INGESTING);
        become(READY, null);
        registerEvent(new DocumentReady(id, tenantId));
    }

    /** A retrieval stage failed: the document keeps what was stored before it. */
    public void fail(String reason) {
        require("fail", INGESTING);
        become(FAILED, reason);
    }

    /** A retrieval stage waits out a long rate limit: QUEUED until its job's next attempt. */
    public void waitForRetry() {
        require("wait for a retry", INGESTING);
        become(QUEUED, null);
    }

    /**
     * Rebuilds the named stages (a reindex naming them); the document is queued again when one of
     * them builds retrieval, and stays READY while only enrichments are rebuilt. Refused while the
     * document is being ingested, and for a stage still running.
     */
    public void rebuild(Collection<String> names, boolean requested) {
        requireSettled("rebuild stages");
        List<DocumentStage> rebuilt = names.stream().map(this::stage).toList();
        rebuilt.forEach(DocumentStage::requireRebuildable); // all or none
        boolean retrieval = false;
        for (DocumentStage stage : rebuilt) {
            stage.rebuild(requested);
            retrieval |= !stage.enrichment();
        }
        if (retrieval) {
            become(QUEUED, null);
        }
        touch();
    }

    /**
     * A reindex naming no stage: failed enrichments get fresh attempts, finished ones with gaps run again
     * for them, and a FAILED document resumes its ingestion.
     */
    public void resume() {
        requireSettled("resume");
        stages.forEach(DocumentStage::retryIfFailed);
        if (status == FAILED) {
            become(QUEUED, null);
        }
        touch();
    }

    /**
     * Sessions were appended after the stored text: the new hash and length, and the document
     * queued again with every stage pending; each stage keeps its output and processes only what
     * it has not seen yet.
     */
    public void appendSessions(String contentHash, int charCount) {
        requireSettled("append sessions");
        if (kind != DocumentKind.CONVERSATION) {
            throw new IllegalStateException("document " + id + " is " + kind + "; only a conversation grows");
        }
        this.contentHash = contentHash;
        this.charCount = charCount;
        stages.forEach(DocumentStage::resume);
        become(QUEUED, null);
        touch();
    }

    /** Marks the document for deletion by its repository, and tells the other modules once that commits. */
    Document deleted() {
        registerEvent(new DocumentDeleted(id, tenantId));
        return this;
    }

    /** Starts a run of the named stage; the generation whose outcome the run may record. */
    public int startStage(String name) {
        int generation = stage(name).start();
        touch();
        return generation;
    }

    /** Records how a stage's run ended; false when the stage was reset meanwhile (see {@link DocumentStage#finish}). */
    public boolean finishStage(String name, int generation, StageStatus outcome, String message, Instant retryAt) {
        DocumentStage stage = stage(name);
        boolean recorded = stage.finish(generation, outcome, message, retryAt);
        if (recorded) {
            touch();
            if (outcome == StageStatus.DONE && stage.enrichment()) {
                registerEvent(new MemoryBuilt(id, tenantId, name));
            }
        }
        return recorded;
    }

    public void skipStage(String name, String reason) {
        stage(name).skip(reason);
        touch();
    }

    /** Moves to {@code next}; {@code reason} is why, for FAILED, and null otherwise. */
    private void become(DocumentStatus next, String reason) {
        status = next;
        failureReason = reason;
        touch();
    }

    /** Appends and reindexes wait for a running ingestion to end: it would not see their change. */
    private void requireSettled(String transition) {
        require(transition, READY, FAILED);
    }

    private void require(String transition, DocumentStatus first, DocumentStatus... more) {
        IllegalTransitionException.require("Document", id, status, transition, first, more);
    }

    /** Any change to the document or one of its stages: the root becomes dirty, so its version is checked and bumped. */
    private void touch() {
        updatedAt = Instant.now();
    }

    private Optional<DocumentStage> find(String name) {
        return stages.stream().filter(s -> s.name().equals(name)).findFirst();
    }

    DocumentStage stage(String name) {
        return find(name)
                .orElseThrow(() -> new IllegalStateException("document " + id + " has no stage '" + name + "'"));
    }

    /** The events this aggregate will publish when its repository next saves or deletes it. */
    List<Object> pendingEvents() {
        return List.copyOf(domainEvents());
    }

    public UUID id() {
        return id;
    }

    Long version() {
        return version;
    }

    UUID tenantId() {
        return tenantId;
    }

    public DocumentKind kind() {
        return kind;
    }

    public DocumentStatus status() {
        return status;
    }

    String failureReason() {
        return failureReason;
    }

    String contentHash() {
        return contentHash;
    }

    int charCount() {
        return charCount;
    }

    public List<DocumentStage> stages() {
        return List.copyOf(stages);
    }
}
