package io.lorekeeper.memory;

import static io.lorekeeper.memory.EmbeddingChange.State.CANCELLED;
import static io.lorekeeper.memory.EmbeddingChange.State.FAILED;
import static io.lorekeeper.memory.EmbeddingChange.State.FILLING;
import static io.lorekeeper.memory.EmbeddingChange.State.SWITCHED;
import static io.lorekeeper.memory.EmbeddingChange.State.SWITCHING;

import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;

import io.lorekeeper.platform.IllegalTransitionException;

/**
 * Moving the stored vectors to another embedding model: FILLING (every vector set filled again into the
 * next columns, document by document, while search uses the live ones), SWITCHING (replicas hold their
 * embedding while the columns swap), then SWITCHED; or CANCELLED by a user, or FAILED with the reason
 * (the live vectors untouched in both). One at a time.
 */
@Entity
@Table(name = "embedding_change")
class EmbeddingChange {

    enum State {
        FILLING,
        SWITCHING,
        SWITCHED,
        CANCELLED,
        FAILED
    }

    @Id
    private UUID id;

    @Version
    private Long version;

    private String model;
    private int dimensions;
    private String fromModel;

    @Enumerated(EnumType.STRING)
    private State state;

    private int documentsTotal;
    private int documentsDone;
    private String failure;
    private Instant requestedAt;
    private Instant finishedAt;

    protected EmbeddingChange() {
        // for JPA
    }

    static EmbeddingChange request(String model, int dimensions, String fromModel, int documents) {
        EmbeddingChange change = new EmbeddingChange();
        change.id = UUID.randomUUID();
        change.model = model;
        change.dimensions = dimensions;
        change.fromModel = fromModel;
        change.state = FILLING;
        change.documentsTotal = documents;
        change.requestedAt = Instant.now();
        return change;
    }

    /** Documents filled so far out of those there are now (documents added or deleted meanwhile count). */
    void progress(int done, int total) {
        require("record progress", FILLING);
        documentsDone = done;
        documentsTotal = total;
    }

    void switching() {
        require("switch", FILLING);
        state = SWITCHING;
    }

    /** The switch found vectors written since the last fill: back to filling them. */
    void refill() {
        require("fill again", SWITCHING);
        state = FILLING;
    }

    void switched() {
        require("finish", SWITCHING);
        state = SWITCHED;
        finishedAt = Instant.now();
    }

    void cancel() {
        require("cancel", FILLING);
        state = CANCELLED;
        finishedAt = Instant.now();
    }

    void fail(String reason) {
        require("fail", FILLING, SWITCHING);
        state = FAILED;
        failure = reason;
        finishedAt = Instant.now();
    }

    boolean running() {
        return state == FILLING || state == SWITCHING;
    }

    private void require(String transition, State first, State... more) {
        IllegalTransitionException.require("EmbeddingChange", id, state, transition, first, more);
    }

    UUID id() {
        return id;
    }

    String model() {
        return model;
    }

    int dimensions() {
        return dimensions;
    }

    String fromModel() {
        return fromModel;
    }

    State state() {
        return state;
    }

    int documentsTotal() {
        return documentsTotal;
    }

    int documentsDone() {
        return documentsDone;
    }

    String failure() {
        return failure;
    }

    Instant requestedAt() {
        return requestedAt;
    }

    Instant finishedAt() {
        return finishedAt;
    }
}
