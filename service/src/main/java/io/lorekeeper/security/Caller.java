package io.lorekeeper.security;

import java.util.UUID;

/**
 * Who sent a request, as its key says: the operator (admin key; acts for the default tenant), a
 * tenant's key, or the service calling itself for a tenant (an evaluation run).
 *
 * @param keyPrefix the key's display prefix (never the key), for logs and problems
 * @param quotas    the tenant's limits in force; none for the operator
 */
record Caller(Kind kind, UUID tenantId, UUID keyId, String keyPrefix, boolean canEvaluate, Quotas quotas) {

    enum Kind {
        ADMIN,
        TENANT,
        INTERNAL
    }

    static Caller admin() {
        return new Caller(Kind.ADMIN, CurrentTenant.DEFAULT, null, "admin", true, Quotas.NONE);
    }

    /** Only keys handed to clients are rate limited: the operator and the service's own calls are not. */
    boolean rateLimited() {
        return kind == Kind.TENANT && quotas.requestsPerMinute() > 0;
    }
}
