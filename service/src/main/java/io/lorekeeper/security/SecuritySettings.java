package io.lorekeeper.security;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * @param adminKey the operator's key (env {@code LOREKEEPER_ADMIN_KEY}), at least 32 characters; unset,
 *                 the service runs open: no keys, every caller is the default tenant (local use only)
 */
@ConfigurationProperties("lorekeeper.security")
record SecuritySettings(String adminKey) {

    static final int MIN_ADMIN_KEY_LENGTH = 32;

    SecuritySettings {
        if (adminKey != null && !adminKey.isBlank() && adminKey.strip().length() < MIN_ADMIN_KEY_LENGTH) {
            // A short admin key guards every tenant's data: refuse to start rather than run with it.
            throw new IllegalArgumentException("lorekeeper.security.admin-key (LOREKEEPER_ADMIN_KEY) must be at least "
                    + MIN_ADMIN_KEY_LENGTH + " characters; generate one with `openssl rand -base64 32`");
        }
        adminKey = adminKey == null || adminKey.isBlank() ? null : adminKey.strip();
    }

    boolean keysRequired() {
        return adminKey != null;
    }

    String mode() {
        return keysRequired() ? "api-keys" : "off";
    }
}
