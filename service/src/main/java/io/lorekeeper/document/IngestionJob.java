package io.lorekeeper.document;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;

import io.lorekeeper.platform.EntityJobs;

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
    IngestionScheduler ingestionScheduler(SchedulerClient scheduler, OneTimeTask<Void> ingestDocumentTask) {
        return new IngestionScheduler(scheduler, ingestDocumentTask);
    }

    static class IngestionScheduler extends EntityJobs.Scheduler {
        IngestionScheduler(SchedulerClient scheduler, OneTimeTask<Void> task) {
            super(scheduler, task);
        }
    }
}
