package io.lorekeeper.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import io.lorekeeper.platform.Transitions;

/**
 * Tenants' API keys: {@code lk_} and 32 random bytes in base64url. Only the key's SHA-256 is
 * stored (with a short prefix to tell keys apart in listings); a presented key is looked up by its
 * hash on every request, with no cache, so that a revocation holds on every replica at once. The
 * keys are {@link ApiKey} entities; a revocation is their one state change.
 */
@Component
class ApiKeys {

    static final String PREFIX = "lk_";
    /** {@code lk_} and 8 characters (48 of the key's 256 bits): enough to recognise a key, useless to guess it. */
    private static final int DISPLAY_LENGTH = PREFIX.length() + 8;

    private static final SecureRandom RANDOM = new SecureRandom();

    record NewApiKey(UUID id, String name, String prefix, boolean canEvaluate, Instant createdAt, String key) {}

    record ApiKeyView(UUID id, String name, String prefix, boolean canEvaluate, Instant createdAt, Instant revokedAt) {}

    /** What a valid key resolves to. */
    record Holder(UUID keyId, UUID tenantId, String prefix, boolean canEvaluate, Quotas.Overrides quotas) {}

    private final ApiKeyRepository keys;
    private final Transitions transitions;

    ApiKeys(ApiKeyRepository keys, Transitions transitions) {
        this.keys = keys;
        this.transitions = transitions;
    }

    static String newKey() {
        byte[] secret = new byte[32];
        RANDOM.nextBytes(secret);
        return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
    }

    static byte[] hash(String key) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * How a presented key may be shown (problems, logs): the prefix of one of our keys, nothing of
     * anything else (it may be a secret pasted into the wrong header).
     */
    static String masked(String key) {
        return key != null && key.startsWith(PREFIX) && key.length() > DISPLAY_LENGTH
                ? key.substring(0, DISPLAY_LENGTH) + "…"
                : "(not a Lorekeeper key)";
    }

    @Transactional
    NewApiKey issue(UUID tenantId, String name, boolean canEvaluate) {
        String key = newKey();
        ApiKey stored = keys.save(
                new ApiKey(tenantId, name, key.substring(0, DISPLAY_LENGTH), hash(key), canEvaluate, Timestamps.now()));
        return new NewApiKey(stored.id(), name, stored.prefix(), canEvaluate, stored.createdAt(), key);
    }

    List<ApiKeyView> list(UUID tenantId) {
        return keys.findByTenantIdOrderByCreatedAtAscIdAsc(tenantId).stream()
                .map(k -> new ApiKeyView(k.id(), k.name(), k.prefix(), k.canEvaluate(), k.createdAt(), k.revokedAt()))
                .toList();
    }

    /**
     * Revokes the tenant's key; false when it has no such key. A revocation that loses a race with
     * another replica's is applied again to the fresh key, which refuses it.
     *
     * @throws io.lorekeeper.platform.IllegalTransitionException when the key is revoked already
     */
    boolean revoke(UUID tenantId, UUID keyId) {
        if (keys.findByIdAndTenantId(keyId, tenantId).isEmpty()) {
            return false;
        }
        return transitions
                .apply(keys, keyId, key -> key.revoke(Timestamps.now()))
                .isPresent();
    }

    Optional<Holder> find(String presented) {
        byte[] hash = hash(presented);
        // The index finds the row by hash; the comparison that decides is the constant-time one.
        return keys.findActiveByHash(hash).stream()
                .filter(active -> MessageDigest.isEqual(hash, active.key().keyHash()))
                .map(active -> new Holder(
                        active.key().id(),
                        active.key().tenantId(),
                        active.key().prefix(),
                        active.key().canEvaluate(),
                        active.tenant().quotas()))
                .findFirst();
    }
}
