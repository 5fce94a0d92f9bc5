package io.lorekeeper.security;

import java.time.Instant;
import java.util.UUID;

/**
 * The model tokens a tenant was billed, for the daily token quota: implemented by the module that
 * keeps the call log.
 */
public interface TokenSpend {

    /** Tokens the provider billed (cache hits cost nothing) to the tenant since the instant. */
    long billedSince(UUID tenantId, Instant since);
}
