package io.lorekeeper.security;

import java.util.UUID;

/**
 * Published inside the transaction that deletes a tenant, before its row goes. Each module that
 * keeps something for the tenant beyond what the schema cascades from the tenant row (waiting jobs,
 * the call log, cached replies, graph summaries) forgets it in a synchronous listener, so the whole
 * deletion commits or rolls back as one.
 */
public record TenantDeletion(UUID tenantId) {}
