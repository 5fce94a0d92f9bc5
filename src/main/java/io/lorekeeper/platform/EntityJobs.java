package io.lorekeeper.platform;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;

import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.exceptions.TaskInstanceCurrentlyExecutingException;
import com.github.kagkarlsson.scheduler.exceptions.TaskInstanceNotFoundException;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;

/**
 * Long work keyed by one entity's id (a document to ingest, a question to answer, an evaluation to
 * run) as a db-scheduler one-time job: any replica sharing the database may run it, a job whose
 * replica died (no heartbeat) is revived elsewhere, and a long rate limit re-queues it instead of
 * failing it. Each module declares its task with {@link #task} and a scheduler subclass.
 */
public final class EntityJobs {

    private EntityJobs() {
    }

    public static OneTimeTask<Void> task(String name, Consumer<UUID> work) {
        return Tasks.oneTime(name)
                .onFailure(new RequeueOnRetryLater<>())
                .onDeadExecutionRevive()
                .execute((instance, context) -> work.accept(UUID.fromString(instance.getId())));
    }

    /**
     * Schedules a task's jobs and, once the application is ready, re-queues entities left without a
     * job (e.g. by a crash between the insert and the scheduling).
     */
    public abstract static class Scheduler {

        private static final Logger log = LoggerFactory.getLogger(Scheduler.class);

        private final SchedulerClient scheduler;
        private final OneTimeTask<Void> task;
        private final String entity;
        private final Function<String, List<UUID>> orphaned;

        /**
         * @param entity   what an id names, for the log ("question")
         * @param orphaned the ids of entities waiting for a job of the named task that has none
         */
        protected Scheduler(SchedulerClient scheduler, OneTimeTask<Void> task, String entity, Function<String, List<UUID>> orphaned) {
            this.scheduler = scheduler;
            this.task = task;
            this.entity = entity;
            this.orphaned = orphaned;
        }

        /**
         * Makes the entity's job due now: a new job, or an existing one waiting for a later time (a
         * scheduled retry) brought forward. A job already running is left alone; its handler must
         * notice the change that asked for another run.
         */
        public void schedule(UUID id) {
            var instance = task.instance(id.toString());
            if (scheduler.scheduleIfNotExists(instance, Instant.now())) {
                return;
            }
            try {
                scheduler.reschedule(instance, Instant.now());
            } catch (TaskInstanceCurrentlyExecutingException running) {
                // it re-reads the entity's state before it finishes
            } catch (TaskInstanceNotFoundException finishedMeanwhile) {
                scheduler.scheduleIfNotExists(instance, Instant.now());
            }
        }

        @EventListener(ApplicationReadyEvent.class)
        public void recoverOrphans() {
            for (UUID id : orphaned.apply(task.getName())) {
                log.info("Re-queueing {} {} (it had no job)", entity, id);
                schedule(id);
            }
        }
    }
}
