package io.lorekeeper.question;

import java.util.Optional;
import java.util.UUID;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Query;

/** The question aggregates. Trace events, bulk and append-only, stay on SQL in {@link QuestionStore}. */
interface QuestionRepository extends JpaRepository<Question, UUID> {

    Optional<Question> findByIdAndTenantId(UUID id, UUID tenantId);

    /** The tenant's questions over the document that still wait for their job. */
    @Query(
            value =
                    "SELECT id FROM question WHERE tenant_id = :tenantId AND :documentId = ANY (document_ids) AND status = 'QUEUED'",
            nativeQuery = true)
    java.util.List<UUID> findQueuedOn(UUID tenantId, UUID documentId);
}
