package io.lorekeeper.eval;

import java.util.Optional;
import java.util.UUID;

import org.springframework.data.jpa.repository.JpaRepository;

/** The evaluation aggregates. Their per-question results stay on SQL in {@link EvaluationStore}. */
interface Evaluations extends JpaRepository<Evaluation, UUID> {

    Optional<Evaluation> findByIdAndTenantId(UUID id, UUID tenantId);
}
