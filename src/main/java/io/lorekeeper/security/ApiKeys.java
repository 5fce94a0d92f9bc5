package io.lorekeeper.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Tenants' API keys: {@code lk_} and 32 random bytes in base64url. Only the key's SHA-256 is
 * stored (with a short prefix to tell keys apart in listings); a presented key is looked up by its
 * hash on every request, with no cache, so that a revocation holds on every replica at once.
 */
@Component
class ApiKeys {

    static final String PREFIX = "lk_";
    /** {@code lk_} and 8 characters (48 of the key's 256 bits): enough to recognise a key, useless to guess it. */
    private static final int DISPLAY_LENGTH = PREFIX.length() + 8;
    private static final SecureRandom RANDOM = new SecureRandom();

    record NewApiKey(UUID id, String name, String prefix, boolean canEvaluate, Instant createdAt, String key) {
    }

    record ApiKeyView(UUID id, String name, String prefix, boolean canEvaluate, Instant createdAt, Instant revokedAt) {
    }

    /** What a valid key resolves to. */
    record Holder(UUID keyId, UUID tenantId, String prefix, boolean canEvaluate, Quotas.Overrides quotas) {
    }

    private final JdbcClient jdbc;

    ApiKeys(JdbcClient jdbc) {
        this.jdbc = jdbc;
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
        return key != null && key.startsWith(PREFIX) && key.length() > DISPLAY_LENGTH ? key.substring(0, DISPLAY_LENGTH) + "…" : "(not a Lorekeeper key)";
    }

    NewApiKey issue(UUID tenantId, String name, boolean canEvaluate) {
        String key = newKey();
        UUID id = UUID.randomUUID();
        String prefix = key.substring(0, DISPLAY_LENGTH);
        Instant created = jdbc.sql("""
                INSERT INTO api_key (id, tenant_id, name, prefix, key_hash, can_evaluate) VALUES (?, ?, ?, ?, ?, ?)
                RETURNING created_at""")
                .params(id, tenantId, name, prefix, hash(key), canEvaluate)
                .query((rs, n) -> rs.getTimestamp(1).toInstant()).single();
        return new NewApiKey(id, name, prefix, canEvaluate, created, key);
    }

    List<ApiKeyView> list(UUID tenantId) {
        return jdbc.sql("""
                SELECT id, name, prefix, can_evaluate, created_at, revoked_at FROM api_key
                WHERE tenant_id = ? ORDER BY created_at, id""")
                .param(tenantId)
                .query((rs, n) -> new ApiKeyView(rs.getObject("id", UUID.class), rs.getString("name"), rs.getString("prefix"),
                        rs.getBoolean("can_evaluate"), rs.getTimestamp("created_at").toInstant(),
                        rs.getTimestamp("revoked_at") == null ? null : rs.getTimestamp("revoked_at").toInstant()))
                .list();
    }

    /** True when the key existed for the tenant (revoking a revoked key again changes nothing). */
    boolean revoke(UUID tenantId, UUID keyId) {
        return jdbc.sql("UPDATE api_key SET revoked_at = coalesce(revoked_at, now()) WHERE tenant_id = ? AND id = ?")
                .params(tenantId, keyId).update() > 0;
    }

    Optional<Holder> find(String presented) {
        byte[] hash = hash(presented);
        record Row(byte[] hash, Holder holder) {
        }
        // The index finds the row by hash; the comparison that decides is the constant-time one.
        return jdbc.sql("""
                SELECT k.id, k.tenant_id, k.prefix, k.key_hash, k.can_evaluate,
                       t.requests_per_minute, t.max_stored_bytes, t.max_documents, t.llm_tokens_per_day
                FROM api_key k JOIN tenant t ON t.id = k.tenant_id
                WHERE k.key_hash = ? AND k.revoked_at IS NULL""")
                .param(hash)
                .query((rs, n) -> new Row(rs.getBytes("key_hash"), new Holder(rs.getObject("id", UUID.class),
                        rs.getObject("tenant_id", UUID.class), rs.getString("prefix"), rs.getBoolean("can_evaluate"), Tenants.overrides(rs))))
                .list().stream()
                .filter(row -> MessageDigest.isEqual(hash, row.hash()))
                .map(Row::holder)
                .findFirst();
    }

    static Long nullableLong(ResultSet rs, String column) throws SQLException {
        long value = rs.getLong(column);
        return rs.wasNull() ? null : value;
    }
}
