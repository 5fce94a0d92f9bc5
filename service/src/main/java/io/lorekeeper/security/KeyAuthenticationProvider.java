package io.lorekeeper.security;

import java.security.MessageDigest;

import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.core.Authentication;
import org.springframework.stereotype.Component;

/** Resolves a presented key: the admin key, a key this process issued itself, or a tenant's stored key. */
@Component
class KeyAuthenticationProvider implements AuthenticationProvider {

    private final byte[] adminKeyHash;
    private final ApiKeys keys;
    private final InternalKeys internal;
    private final Tenants tenants;
    private final QuotaSettings quotas;

    KeyAuthenticationProvider(
            SecuritySettings settings, ApiKeys keys, InternalKeys internal, Tenants tenants, QuotaSettings quotas) {
        this.adminKeyHash = settings.keysRequired() ? ApiKeys.hash(settings.adminKey()) : null;
        this.keys = keys;
        this.internal = internal;
        this.tenants = tenants;
        this.quotas = quotas;
    }

    @Override
    public Authentication authenticate(Authentication authentication) {
        String presented = ((KeyAuthentication) authentication).key();
        if (presented == null || presented.isEmpty() || presented.length() > 512) {
            throw new BadCredentialsException("the API key is not valid");
        }
        // Equal-length digests compared in constant time: neither the key nor its length leaks through timing.
        if (adminKeyHash != null && MessageDigest.isEqual(adminKeyHash, ApiKeys.hash(presented))) {
            return KeyAuthentication.of(Caller.admin());
        }
        var own = internal.tenantOf(presented);
        if (own.isPresent()) {
            return KeyAuthentication.of(new Caller(
                    Caller.Kind.INTERNAL,
                    own.get(),
                    null,
                    "internal",
                    false,
                    tenants.overrides(own.get()).over(quotas.defaults())));
        }
        return keys.find(presented)
                .map(h -> KeyAuthentication.of(new Caller(
                        Caller.Kind.TENANT,
                        h.tenantId(),
                        h.keyId(),
                        h.prefix(),
                        h.canEvaluate(),
                        h.quotas().over(quotas.defaults()))))
                .orElseThrow(() -> new BadCredentialsException(
                        "the API key " + ApiKeys.masked(presented) + " is not valid or has been revoked"));
    }

    @Override
    public boolean supports(Class<?> authentication) {
        return KeyAuthentication.class.isAssignableFrom(authentication);
    }
}
