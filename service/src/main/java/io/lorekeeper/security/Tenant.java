package io.lorekeeper.security;

import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;

/**
 * A tenant: the owner of documents, questions and evaluations, with its own quota values. It has no
 * states to move between; a tenant is deleted with everything it owns ({@link Tenants#delete}), and
 * the version makes a change that raced a deletion or another change fail instead of overwriting.
 */
@Entity
@Table(name = "tenant")
class Tenant {

    @Id
    private UUID id;

    @Version
    private Long version;

    private String name;
    /** null: the configured default (lorekeeper.quotas.*); 0: no limit. */
    private Integer requestsPerMinute;

    private Long maxStoredBytes;
    private Integer maxDocuments;
    private Long llmTokensPerDay;

    @Column(updatable = false)
    private Instant createdAt;

    protected Tenant() {
        // for JPA
    }

    Tenant(String name, Quotas.Overrides quotas, Instant createdAt) {
        this.id = UUID.randomUUID();
        this.name = name;
        this.createdAt = createdAt;
        setQuotas(quotas);
    }

    UUID id() {
        return id;
    }

    String name() {
        return name;
    }

    Instant createdAt() {
        return createdAt;
    }

    Long version() {
        return version;
    }

    Quotas.Overrides quotas() {
        return new Quotas.Overrides(toLong(requestsPerMinute), maxStoredBytes, toLong(maxDocuments), llmTokensPerDay);
    }

    /** The tenant's own quota values (the controller has checked their ranges). */
    void setQuotas(Quotas.Overrides quotas) {
        this.requestsPerMinute = toInt(quotas.requestsPerMinute());
        this.maxStoredBytes = quotas.storedBytes();
        this.maxDocuments = toInt(quotas.documents());
        this.llmTokensPerDay = quotas.llmTokensPerDay();
    }

    private static Long toLong(Integer value) {
        return value == null ? null : value.longValue();
    }

    private static Integer toInt(Long value) {
        return value == null ? null : Math.toIntExact(value);
    }
}
