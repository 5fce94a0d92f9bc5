package io.lorekeeper.document;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;

import io.lorekeeper.platform.EntityJobs;
import io.lorekeeper.security.TenantDeletion;

/**
 * Ingestion as a db-scheduler job, so that any replica sharing the database can pick it up and a
 * job whose replica died is revived elsewhere and resumes from its stages' progress.
 */
@Configuration(proxyBeanMethods = false)
class IngestionJob {

    static final String TASK = "ingest-document";

    @Bean
    OneTimeTask<Void> ingestDocumentTask(IngestionPipeline pipeline) {
        return EntityJobs.task(TASK, pipeline::run);
    }

    @Bean
    IngestionScheduler ingestionScheduler(
            SchedulerClient scheduler, OneTimeTask<Void> ingestDocumentTask, JdbcClient jdbc) {
        return new IngestionScheduler(scheduler, ingestDocumentTask, jdbc);
    }

    static class IngestionScheduler extends EntityJobs.Scheduler {
        IngestionScheduler(SchedulerClient scheduler, OneTimeTask<Void> task, JdbcClient jdbc) {
            super(scheduler, task, jdbc, "SELECT id FROM document WHERE tenant_id = ?");
        }

        /** A deleted tenant's documents: their waiting ingestion jobs are cancelled in the deleting transaction. */
        @EventListener
        void forget(TenantDeletion deletion) {
            cancelWaitingOfTenant(deletion.tenantId());
        }
    }
}
