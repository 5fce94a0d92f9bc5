package io.lorekeeper.platform;

import java.time.Instant;
import java.util.Collection;
import java.util.UUID;
import java.util.function.Consumer;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.exceptions.TaskInstanceCurrentlyExecutingException;
import com.github.kagkarlsson.scheduler.exceptions.TaskInstanceNotFoundException;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;

/**
 * Long work keyed by one entity's id (a document to ingest, a question to answer, an evaluation to
 * run) as a db-scheduler one-time job: any replica sharing the database may run it, a job whose
 * replica died (no heartbeat) is revived elsewhere, and a long rate limit re-queues it instead of
 * failing it. Each module declares its task with {@link #task} and a scheduler subclass, which also
 * cancels a deleted tenant's waiting jobs ({@link Scheduler#cancelWaitingOfTenant}).
 */
public final class EntityJobs {

    private EntityJobs() {}

    public static OneTimeTask<Void> task(String name, Consumer<UUID> work) {
        return Tasks.oneTime(name)
                .onFailure(new RequeueOnRetryLater<>())
                .onDeadExecutionRevive()
                .execute((instance, context) -> work.accept(UUID.fromString(instance.getId())));
    }

    /**
     * Schedules a task's jobs inside the transaction that changes the entity needing the job.
     * db-scheduler's Spring starter runs on a transaction-aware DataSource, so the job row commits
     * or rolls back with that change: there is never an entity waiting for a job that was not
     * written, nor a job for an entity that was not.
     */
    public abstract static class Scheduler {

        private final SchedulerClient scheduler;
        private final OneTimeTask<Void> task;
        private final JdbcClient jdbc;
        private final String idsOfTenant;

        /**
         * @param idsOfTenant the owning module's query for the ids of one tenant's entities, its one
         *                    parameter the tenant's id (the entities' table is that module's, not this one's)
         */
        protected Scheduler(SchedulerClient scheduler, OneTimeTask<Void> task, JdbcClient jdbc, String idsOfTenant) {
            this.scheduler = scheduler;
            this.task = task;
            this.jdbc = jdbc;
            this.idsOfTenant = idsOfTenant;
        }

        /**
         * Makes the entity's job due now: a new job, or an existing one waiting for a later time (a
         * scheduled retry) brought forward. A job already running is left alone; its handler must
         * notice the change that asked for another run.
         *
         * @throws IllegalStateException outside a transaction: the job would commit on its own
         */
        public void schedule(UUID id) {
            if (!TransactionSynchronizationManager.isActualTransactionActive()) {
                throw new IllegalStateException("schedule " + task.getName() + " for " + id
                        + " in the transaction that changes the entity, so that both commit or neither does");
            }
            var instance = task.instance(id.toString());
            if (!scheduler.scheduleIfNotExists(instance, Instant.now())) {
                try {
                    scheduler.reschedule(instance, Instant.now());
                } catch (TaskInstanceCurrentlyExecutingException running) {
                    // it re-reads the entity's state before it finishes
                } catch (TaskInstanceNotFoundException finishedMeanwhile) {
                    scheduler.scheduleIfNotExists(instance, Instant.now());
                }
            }
            checkAfterCommit();
        }

        /**
         * Drops the waiting jobs of a tenant's entities, the tenant about to be deleted, in the caller's
         * (the deleting) transaction; the entities themselves go with the tenant's row by the schema's
         * cascade. A job already running is left alone: it finds its entity gone and stops.
         */
        protected void cancelWaitingOfTenant(UUID tenantId) {
            cancelWaiting(
                    jdbc.sql(idsOfTenant).param(tenantId).query(UUID.class).list());
        }

        private void cancelWaiting(Collection<UUID> ids) {
            // One read of this task's (few) unfinished jobs rather than a lookup per entity: a tenant's
            // finished questions or documents, usually nearly all of them, have no job left to cancel.
            java.util.Set<String> wanted =
                    ids.stream().map(UUID::toString).collect(java.util.stream.Collectors.toSet());
            for (var waiting : scheduler.getScheduledExecutionsForTask(task.getName())) {
                if (waiting.isPicked()
                        || !wanted.contains(waiting.getTaskInstance().getId())) {
                    continue;
                }
                try {
                    scheduler.cancel(waiting.getTaskInstance());
                } catch (TaskInstanceNotFoundException | TaskInstanceCurrentlyExecutingException finishedOrRunning) {
                    // finished or picked up since the read: nothing waiting
                }
            }
        }

        /**
         * db-scheduler looks for due jobs as soon as one is scheduled, but inside a transaction that
         * is before the job row is visible; without a second look the job would wait for the next
         * poll. So look again once the transaction has committed.
         */
        private void checkAfterCommit() {
            if (scheduler instanceof com.github.kagkarlsson.scheduler.Scheduler running) {
                TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                    @Override
                    public void afterCommit() {
                        running.triggerCheckForDueExecutions();
                    }
                });
            }
        }
    }
}
