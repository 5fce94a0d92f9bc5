package io.lorekeeper.document;

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
 * Ingestion as a db-scheduler job, so that any replica sharing the database can pick it up and a
 * job whose replica died (no heartbeat) is revived elsewhere and resumes from its stages' progress.
 */
@Configuration(proxyBeanMethods = false)
class IngestionJob {

    static final String TASK = "ingest-document";
    private static final Logger log = LoggerFactory.getLogger(IngestionJob.class);

    @Bean
    OneTimeTask<Void> ingestDocumentTask(IngestionPipeline pipeline) {
        return Tasks.oneTime(TASK)
                .onFailure(new RequeueOnRetryLater<>())
                .onDeadExecutionRevive()
                .execute((instance, context) -> pipeline.run(UUID.fromString(instance.getId())));
    }

    @Bean
    IngestionScheduler ingestionScheduler(SchedulerClient scheduler, OneTimeTask<Void> ingestDocumentTask, DocumentStore store) {
        return new IngestionScheduler(scheduler, ingestDocumentTask, store);
    }

    static class IngestionScheduler {
        private final SchedulerClient scheduler;
        private final OneTimeTask<Void> task;
        private final DocumentStore store;

        IngestionScheduler(SchedulerClient scheduler, OneTimeTask<Void> task, DocumentStore store) {
            this.scheduler = scheduler;
            this.task = task;
            this.store = store;
        }

        void schedule(UUID documentId) {
            scheduler.scheduleIfNotExists(task.instance(documentId.toString()), Instant.now());
        }

        /** Re-queues ingestions left without a job, e.g. by a crash between the insert and the scheduling. */
        @EventListener(ApplicationReadyEvent.class)
        void recoverOrphans() {
            for (UUID id : store.orphanedIngestions(TASK)) {
                log.info("Re-queueing ingestion of document {}", id);
                schedule(id);
            }
        }
    }
}
