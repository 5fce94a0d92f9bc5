package io.lorekeeper.security;

import java.util.UUID;

import org.springframework.stereotype.Component;

/**
 * The tenant of the current request. Until API keys arrive every caller is the built-in
 * {@code default} tenant (created by the first migration); all data access is already scoped by
 * tenant so that keys only have to change this class.
 */
@Component
public class CurrentTenant {

    public static final UUID DEFAULT = UUID.fromString("00000000-0000-0000-0000-000000000000");

    public UUID id() {
        return DEFAULT;
    }
}
