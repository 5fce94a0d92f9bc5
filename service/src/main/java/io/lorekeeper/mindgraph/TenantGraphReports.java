package io.lorekeeper.mindgraph;

import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import io.lorekeeper.security.TenantDeletion;

/**
 * A deleted tenant's community reports, forgotten in the deleting transaction: they are keyed by
 * graph hash, not by document, so the schema's cascade from the tenant's documents does not reach
 * them. The graphs themselves go with the documents.
 */
@Component
class TenantGraphReports {

    private final GraphStore store;

    TenantGraphReports(GraphStore store) {
        this.store = store;
    }

    @EventListener
    void forget(TenantDeletion deletion) {
        store.deleteReportsOf(deletion.tenantId());
    }
}
