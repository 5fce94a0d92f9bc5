package io.lorekeeper.question;

import java.util.Optional;
import java.util.UUID;

import org.springframework.data.jpa.repository.JpaRepository;

/** The question aggregates. Trace events, bulk and append-only, stay on SQL in {@link QuestionStore}. */
interface QuestionRepository extends JpaRepository<Question, UUID> {

    Optional<Question> findByIdAndTenantId(UUID id, UUID tenantId);
}
