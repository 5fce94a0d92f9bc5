/**
 * Who is calling: the tenant every stored document and question belongs to.
 *
 * <p>Owns {@code tenant} and {@code api_key}, as the JPA entities {@code Tenant} and {@code ApiKey}
 * (versioned; a key is revoked once and never again). The per-request key lookup is one indexed
 * query joining the key to its tenant. It reads no other module's table: storage and token quotas
 * ask {@link io.lorekeeper.security.StoredContent} and {@link io.lorekeeper.security.TokenSpend},
 * implemented by the document and llm modules, and a tenant's deletion publishes
 * {@link io.lorekeeper.security.TenantDeletion}, on which each module forgets what it keeps for
 * the tenant in the same transaction.
 */
@io.lorekeeper.platform.OwnsTables({"tenant", "api_key"})
@org.springframework.modulith.ApplicationModule(allowedDependencies = {"platform"})
package io.lorekeeper.security;
