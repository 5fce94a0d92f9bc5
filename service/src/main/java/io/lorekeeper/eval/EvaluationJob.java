package io.lorekeeper.eval;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;

import io.lorekeeper.platform.EntityJobs;
import io.lorekeeper.security.TenantJobScheduler;

/**
 * An evaluation started over HTTP as a db-scheduler job keyed by its id, as ingestion and answering
 * are: any replica may run it, and one whose replica died is revived elsewhere and resumes from the
 * questions it had finished.
 */
@Configuration(proxyBeanMethods = false)
class EvaluationJob {

    static final String TASK = "run-evaluation";

    @Bean
    OneTimeTask<Void> runEvaluationTask(EvaluationRun run) {
        return EntityJobs.task(TASK, run::run);
    }

    @Component
    static class EvaluationScheduler extends TenantJobScheduler {
        EvaluationScheduler(SchedulerClient scheduler, OneTimeTask<Void> runEvaluationTask, JdbcClient jdbc) {
            super(scheduler, runEvaluationTask, jdbc, "SELECT id FROM evaluation WHERE tenant_id = ?");
        }
    }
}
