package io.lorekeeper.security;

import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;

import io.lorekeeper.platform.EntityJobs;

/**
 * The jobs of entities a tenant owns (documents to ingest, evaluations to run): when the tenant is
 * deleted, the waiting jobs of its entities are cancelled in the deleting transaction
 * ({@link TenantDeletion}); a job already running finds its entity gone and stops.
 */
public abstract class TenantJobScheduler extends EntityJobs.Scheduler {

    /**
     * @param idsOfTenant the owning module's query for the ids of one tenant's entities, its one
     *                    parameter the tenant's id
     */
    protected TenantJobScheduler(
            SchedulerClient scheduler, OneTimeTask<Void> task, JdbcClient jdbc, String idsOfTenant) {
        super(scheduler, task, jdbc, idsOfTenant);
    }

    @EventListener
    void forget(TenantDeletion deletion) {
        cancelWaitingOfTenant(deletion.tenantId());
    }
}
