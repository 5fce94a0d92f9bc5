package io.lorekeeper.question;

import java.util.UUID;

import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import io.lorekeeper.security.TenantDeletion;

/**
 * A deleted tenant's questions: their waiting answer jobs are cancelled in the deleting
 * transaction; the questions and their traces go with the tenant's row by the schema's cascade.
 */
@Component
class TenantQuestions {

    private final JdbcClient jdbc;
    private final AnswerJob.AnswerScheduler answers;

    TenantQuestions(JdbcClient jdbc, AnswerJob.AnswerScheduler answers) {
        this.jdbc = jdbc;
        this.answers = answers;
    }

    @EventListener
    void forget(TenantDeletion deletion) {
        answers.cancelWaiting(jdbc.sql("SELECT id FROM question WHERE tenant_id = ?")
                .param(deletion.tenantId())
                .query(UUID.class)
                .list());
    }
}
