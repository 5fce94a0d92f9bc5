package io.lorekeeper.document.ingestion;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;

import io.lorekeeper.platform.EntityJobs;
import io.lorekeeper.security.TenantJobScheduler;

/**
 * Ingestion as a db-scheduler job, so that any replica sharing the database can pick it up and a
 * job whose replica died is revived elsewhere and resumes from its stages' progress.
 */
@Configuration(proxyBeanMethods = false)
public class IngestionJob {

    static final String TASK = "ingest-document";

    @Bean
    OneTimeTask<Void> ingestDocumentTask(IngestionPipeline pipeline) {
        return EntityJobs.task(TASK, pipeline::run);
    }

    @Component
    public static class IngestionScheduler extends TenantJobScheduler {
        IngestionScheduler(SchedulerClient scheduler, OneTimeTask<Void> ingestDocumentTask, JdbcClient jdbc) {
            super(scheduler, ingestDocumentTask, jdbc, "SELECT id FROM document WHERE tenant_id = ?");
        }
    }
}
