package io.lorekeeper.eval;

import java.util.UUID;

import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import io.lorekeeper.security.TenantDeletion;

/**
 * A deleted tenant's evaluations: their waiting jobs are cancelled in the deleting transaction; the
 * runs and their results go with the tenant's row by the schema's cascade.
 */
@Component
class TenantEvaluations {

    private final JdbcClient jdbc;
    private final EvaluationJob.EvaluationScheduler evaluations;

    TenantEvaluations(JdbcClient jdbc, EvaluationJob.EvaluationScheduler evaluations) {
        this.jdbc = jdbc;
        this.evaluations = evaluations;
    }

    @EventListener
    void forget(TenantDeletion deletion) {
        evaluations.cancelWaiting(jdbc.sql("SELECT id FROM evaluation WHERE tenant_id = ?")
                .param(deletion.tenantId())
                .query(UUID.class)
                .list());
    }
}
