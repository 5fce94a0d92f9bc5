package io.lorekeeper.eval;

import java.time.Instant;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;

import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;

import io.lorekeeper.platform.RequeueOnRetryLater;

/**
 * An evaluation started over HTTP as a db-scheduler job keyed by its id, as ingestion and answering
 * are: any replica may run it, and one whose replica died (no heartbeat) is revived elsewhere and
 * resumes from the questions it had finished.
 */
@Configuration(proxyBeanMethods = false)
class EvaluationJob {

    static final String TASK = "run-evaluation";
    private static final Logger log = LoggerFactory.getLogger(EvaluationJob.class);

    @Bean
    OneTimeTask<Void> runEvaluationTask(EvaluationRun run) {
        return Tasks.oneTime(TASK)
                .onFailure(new RequeueOnRetryLater<>())
                .onDeadExecutionRevive()
                .execute((instance, context) -> run.run(UUID.fromString(instance.getId())));
    }

    @Bean
    EvaluationScheduler evaluationScheduler(SchedulerClient scheduler, OneTimeTask<Void> runEvaluationTask, EvaluationStore store) {
        return new EvaluationScheduler(scheduler, runEvaluationTask, store);
    }

    static class EvaluationScheduler {
        private final SchedulerClient scheduler;
        private final OneTimeTask<Void> task;
        private final EvaluationStore store;

        EvaluationScheduler(SchedulerClient scheduler, OneTimeTask<Void> task, EvaluationStore store) {
            this.scheduler = scheduler;
            this.task = task;
            this.store = store;
        }

        void schedule(UUID evaluationId) {
            scheduler.scheduleIfNotExists(task.instance(evaluationId.toString()), Instant.now());
        }

        /** Re-queues evaluations left without a job, e.g. by a crash between the insert and the scheduling. */
        @EventListener(ApplicationReadyEvent.class)
        void recoverOrphans() {
            for (UUID id : store.orphaned(TASK)) {
                log.info("Re-queueing evaluation {}", id);
                schedule(id);
            }
        }
    }
}
