package io.lorekeeper.document.lifecycle;

import java.util.Optional;
import java.util.UUID;

import jakarta.persistence.LockModeType;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Lock;

/**
 * The document aggregates, for their state changes. Reads ({@link DocumentRows}) and the bulk rows
 * derived from a document (text, conversation rows, chunks, pages, lexemes) stay on plain SQL, each
 * written by the concern that derives it.
 */
interface DocumentRepository extends JpaRepository<Document, UUID> {

    Optional<Document> findByIdAndTenantId(UUID id, UUID tenantId);

    /**
     * The tenant's document, its row locked until the transaction ends: appends to one conversation
     * (which render after the stored end) and reindexes of one document queue up here instead of
     * racing, and a job's concurrent change waits, then meets the new version and re-applies.
     */
    @Lock(LockModeType.PESSIMISTIC_WRITE)
    Optional<Document> findLockedByIdAndTenantId(UUID id, UUID tenantId);
}
