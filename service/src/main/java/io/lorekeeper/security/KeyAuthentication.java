package io.lorekeeper.security;

import java.util.ArrayList;
import java.util.List;

import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;

/**
 * An API key as presented (before authentication: the key text only) or as resolved to its
 * {@link Caller}. The key text is dropped once resolved, and {@link #toString()} never shows it.
 */
final class KeyAuthentication extends AbstractAuthenticationToken {

    static final String ADMIN = "ROLE_ADMIN";
    static final String EVALUATE = "EVALUATE";

    private String key;
    private final Caller caller;

    private KeyAuthentication(String key, Caller caller, List<GrantedAuthority> authorities) {
        super(authorities);
        this.key = key;
        this.caller = caller;
        setAuthenticated(caller != null);
    }

    static KeyAuthentication presented(String key) {
        return new KeyAuthentication(key, null, List.of());
    }

    static KeyAuthentication of(Caller caller) {
        List<GrantedAuthority> authorities = new ArrayList<>();
        authorities.add(new SimpleGrantedAuthority("ROLE_TENANT"));
        if (caller.kind() == Caller.Kind.ADMIN) {
            authorities.add(new SimpleGrantedAuthority(ADMIN));
        }
        if (caller.canEvaluate()) {
            authorities.add(new SimpleGrantedAuthority(EVALUATE));
        }
        return new KeyAuthentication(null, caller, authorities);
    }

    String key() {
        return key;
    }

    @Override
    public Object getCredentials() {
        return key;
    }

    @Override
    public Object getPrincipal() {
        return caller;
    }

    @Override
    public String getName() {
        return caller == null ? "unresolved key" : caller.kind() + ":" + caller.keyPrefix();
    }

    @Override
    public void eraseCredentials() {
        key = null;
        super.eraseCredentials();
    }

    @Override
    public String toString() {
        return "KeyAuthentication[" + getName() + "]";
    }
}
