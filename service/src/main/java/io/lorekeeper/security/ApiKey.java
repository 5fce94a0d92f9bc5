package io.lorekeeper.security;

import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;

import io.lorekeeper.platform.IllegalTransitionException;

/**
 * A tenant's API key, stored as the SHA-256 of its text. ACTIVE until revoked, and revoked for good:
 * a revoked key is never revoked again (its revocation time stays the first one) nor re-activated;
 * {@link #revoke} refuses. The version makes two replicas revoking the same key at once conflict, so
 * the loser re-reads and is refused rather than writing a second revocation time.
 */
@Entity
@Table(name = "api_key")
class ApiKey {

    enum State {
        ACTIVE,
        REVOKED
    }

    @Id
    private UUID id;

    @Version
    private Long version;

    @Column(updatable = false)
    private UUID tenantId;

    private String name;
    private String prefix;

    @Column(updatable = false)
    private byte[] keyHash;

    private boolean canEvaluate;

    @Column(updatable = false)
    private Instant createdAt;

    private Instant revokedAt;

    protected ApiKey() {
        // for JPA
    }

    ApiKey(UUID tenantId, String name, String prefix, byte[] keyHash, boolean canEvaluate, Instant createdAt) {
        this.id = UUID.randomUUID();
        this.tenantId = tenantId;
        this.name = name;
        this.prefix = prefix;
        this.keyHash = keyHash.clone();
        this.canEvaluate = canEvaluate;
        this.createdAt = createdAt;
    }

    State state() {
        return revokedAt == null ? State.ACTIVE : State.REVOKED;
    }

    /** ACTIVE → REVOKED; refused for a key revoked already. */
    void revoke(Instant at) {
        IllegalTransitionException.require("ApiKey", id, state(), "revoke", State.ACTIVE);
        this.revokedAt = at;
    }

    UUID id() {
        return id;
    }

    UUID tenantId() {
        return tenantId;
    }

    String name() {
        return name;
    }

    String prefix() {
        return prefix;
    }

    byte[] keyHash() {
        return keyHash.clone();
    }

    boolean canEvaluate() {
        return canEvaluate;
    }

    Instant createdAt() {
        return createdAt;
    }

    Instant revokedAt() {
        return revokedAt;
    }

    Long version() {
        return version;
    }
}
