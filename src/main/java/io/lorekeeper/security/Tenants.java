package io.lorekeeper.security;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/** The tenant rows: name, quota overrides, and deletion of everything a tenant owns. */
@Component
class Tenants {

    record Tenant(UUID id, String name, Quotas.Overrides quotas, Instant createdAt) {
    }

    private final JdbcClient jdbc;

    Tenants(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Throws {@link org.springframework.dao.DuplicateKeyException} when the name is taken. */
    Tenant create(String name, Quotas.Overrides quotas) {
        UUID id = UUID.randomUUID();
        jdbc.sql("""
                INSERT INTO tenant (id, name, requests_per_minute, max_stored_bytes, max_documents, llm_tokens_per_day)
                VALUES (?, ?, ?, ?, ?, ?)""")
                .params(id, name, quotas.requestsPerMinute(), quotas.storedBytes(), quotas.documents(), quotas.llmTokensPerDay())
                .update();
        return find(id).orElseThrow();
    }

    List<Tenant> list() {
        return jdbc.sql("SELECT * FROM tenant ORDER BY created_at, name").query(Tenants::tenant).list();
    }

    Optional<Tenant> find(UUID id) {
        return jdbc.sql("SELECT * FROM tenant WHERE id = ?").param(id).query(Tenants::tenant).optional();
    }

    /**
     * Deletes the tenant and everything it owns in one transaction: its keys, documents (with every
     * memory built from them), questions and traces, evaluations, call log, cached replies and
     * stored graph summaries, and the jobs still waiting for any of them. A job already running for
     * one of them finds its rows gone and stops.
     */
    @Transactional
    boolean delete(UUID id) {
        if (jdbc.sql("SELECT 1 FROM tenant WHERE id = ? FOR UPDATE").param(id).query(Integer.class).optional().isEmpty()) {
            return false;
        }
        jdbc.sql("""
                DELETE FROM scheduled_tasks WHERE NOT picked AND task_instance IN (
                    SELECT id::text FROM document WHERE tenant_id = :t
                    UNION ALL SELECT id::text FROM question WHERE tenant_id = :t
                    UNION ALL SELECT id::text FROM evaluation WHERE tenant_id = :t)""")
                .param("t", id).update();
        jdbc.sql("DELETE FROM llm_call WHERE tenant_id = ?").param(id).update();
        jdbc.sql("DELETE FROM llm_cache WHERE tenant_id = ?").param(id).update();
        jdbc.sql("DELETE FROM graph_summary WHERE graph_hash LIKE ?").param(id + ":%").update();
        // api_key, document (and all its derived rows), question (and its trace), evaluation cascade.
        jdbc.sql("DELETE FROM tenant WHERE id = ?").param(id).update();
        return true;
    }

    private static Tenant tenant(ResultSet rs, int row) throws SQLException {
        return new Tenant(rs.getObject("id", UUID.class), rs.getString("name"), overrides(rs), rs.getTimestamp("created_at").toInstant());
    }

    static Quotas.Overrides overrides(ResultSet rs) throws SQLException {
        return new Quotas.Overrides(ApiKeys.nullableLong(rs, "requests_per_minute"), ApiKeys.nullableLong(rs, "max_stored_bytes"),
                ApiKeys.nullableLong(rs, "max_documents"), ApiKeys.nullableLong(rs, "llm_tokens_per_day"));
    }

    Quotas.Overrides overrides(UUID tenantId) {
        return jdbc.sql("SELECT * FROM tenant WHERE id = ?").param(tenantId).query((rs, n) -> overrides(rs)).optional()
                .orElse(Quotas.Overrides.NONE);
    }
}
