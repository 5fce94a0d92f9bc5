package io.lorekeeper.security;

import java.util.Optional;
import java.util.UUID;

import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.stereotype.Component;

/**
 * The tenant of the current request: the one its API key belongs to (the admin key acts for the
 * default tenant). With keys off every caller is the built-in {@code default} tenant.
 *
 * <p>Only request threads have a caller. Background jobs take the tenant from the row they work on;
 * asking here from a job while keys are required is a bug, and fails instead of guessing.
 */
@Component
public class CurrentTenant {

    public static final UUID DEFAULT = UUID.fromString("00000000-0000-0000-0000-000000000000");

    private final SecuritySettings settings;

    CurrentTenant(SecuritySettings settings) {
        this.settings = settings;
    }

    public UUID id() {
        Optional<Caller> caller = caller();
        if (caller.isPresent()) {
            return caller.get().tenantId();
        }
        if (!settings.keysRequired()) {
            return DEFAULT;
        }
        throw new IllegalStateException(
                "no authenticated caller on this thread; a background job must use the tenant of its row");
    }

    static Optional<Caller> caller() {
        var authentication = SecurityContextHolder.getContext().getAuthentication();
        return authentication != null && authentication.getPrincipal() instanceof Caller c
                ? Optional.of(c)
                : Optional.empty();
    }
}
