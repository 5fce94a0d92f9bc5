package io.lorekeeper.llm;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Persistent replies keyed by a hash of (tenant, model, messages, parameters), shared by every replica, so
 * that re-running an evaluation at temperature 0 costs nothing.
 */
@Component
class ResponseCache {

    record Entry(String reply, long promptTokens, long completionTokens) {}

    private final JdbcClient jdbc;

    ResponseCache(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    static String key(String canonicalRequest) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256")
                            .digest(canonicalRequest.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    Optional<Entry> get(String key) {
        return jdbc.sql("SELECT reply, prompt_tokens, completion_tokens FROM llm_cache WHERE key = ?")
                .param(key)
                .query((rs, n) ->
                        new Entry(rs.getString("reply"), rs.getLong("prompt_tokens"), rs.getLong("completion_tokens")))
                .optional();
    }

    /** The tenant's entries are deleted with the tenant (their replies came from its documents). */
    void put(String key, java.util.UUID tenantId, Entry entry) {
        jdbc.sql("""
                INSERT INTO llm_cache (key, tenant_id, reply, prompt_tokens, completion_tokens) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (key) DO NOTHING""")
                .params(key, tenantId, entry.reply(), entry.promptTokens(), entry.completionTokens())
                .update();
    }
}
