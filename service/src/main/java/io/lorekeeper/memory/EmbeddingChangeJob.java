package io.lorekeeper.memory;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;

import io.lorekeeper.platform.EntityJobs;

/**
 * An embedding change runs as a db-scheduler job keyed by its id, as ingestion does: any replica that
 * knows the new model may run it, and one whose replica died is revived elsewhere and resumes after the
 * documents it had filled.
 */
@Configuration(proxyBeanMethods = false)
class EmbeddingChangeJob {

    static final String TASK = "change-embedding-model";

    @Bean
    OneTimeTask<Void> changeEmbeddingModelTask(EmbeddingChangeRun run) {
        return EntityJobs.task(TASK, run::run);
    }

    @Component
    static class EmbeddingChangeScheduler extends EntityJobs.Scheduler {
        EmbeddingChangeScheduler(
                SchedulerClient scheduler, OneTimeTask<Void> changeEmbeddingModelTask, JdbcClient jdbc) {
            // a change is the deployment's, not a tenant's: no tenant's deletion cancels it
            super(
                    scheduler,
                    changeEmbeddingModelTask,
                    jdbc,
                    "SELECT id FROM embedding_change WHERE false AND ? IS NULL");
        }
    }
}
