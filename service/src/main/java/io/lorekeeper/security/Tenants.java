package io.lorekeeper.security;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/** The tenants: creation with quota overrides, and deletion of everything a tenant owns. */
@Component
class Tenants {

    private final TenantRepository tenants;
    private final ApplicationEventPublisher events;

    Tenants(TenantRepository tenants, ApplicationEventPublisher events) {
        this.tenants = tenants;
        this.events = events;
    }

    /** Throws {@link org.springframework.dao.DataIntegrityViolationException} when the name is taken. */
    @Transactional
    Tenant create(String name, Quotas.Overrides quotas) {
        return tenants.saveAndFlush(new Tenant(name, quotas, Timestamps.now()));
    }

    List<Tenant> list() {
        return tenants.findAllByOrderByCreatedAtAscNameAsc();
    }

    Optional<Tenant> find(UUID id) {
        return tenants.findById(id);
    }

    /**
     * Deletes the tenant and everything it owns in one transaction. The schema cascades the
     * tenant's row to its keys, documents (with every memory built from them), questions and
     * traces, and evaluations; what the cascade does not reach (waiting jobs, the call log, cached
     * replies, graph summaries) each owning module forgets on {@link TenantDeletion}, in this
     * transaction. A job already running for one of them finds its rows gone and stops.
     */
    @Transactional
    boolean delete(UUID id) {
        Optional<Tenant> tenant = tenants.findLockedById(id);
        if (tenant.isEmpty()) {
            return false;
        }
        events.publishEvent(new TenantDeletion(id));
        tenants.delete(tenant.get());
        return true;
    }

    Quotas.Overrides overrides(UUID tenantId) {
        return tenants.findById(tenantId).map(Tenant::quotas).orElse(Quotas.Overrides.NONE);
    }
}
