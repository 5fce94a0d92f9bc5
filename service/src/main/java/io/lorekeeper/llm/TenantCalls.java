package io.lorekeeper.llm;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.UUID;

import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import io.lorekeeper.security.TenantDeletion;
import io.lorekeeper.security.TokenSpend;

/**
 * A tenant's model calls as the tenancy module needs them: the tokens it was billed (for the daily
 * token quota, counted as {@code /v1/usage} counts them), and its call log and cached replies
 * forgotten when it is deleted (neither has a foreign key to the tenant: the log outlives deleted
 * documents and questions on purpose).
 */
@Component
class TenantCalls implements TokenSpend {

    private final JdbcClient jdbc;

    TenantCalls(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public long billedSince(UUID tenantId, Instant since) {
        return jdbc.sql("""
                SELECT coalesce(sum(prompt_tokens + completion_tokens) FILTER (WHERE NOT cache_hit), 0)
                FROM llm_call WHERE tenant_id = ? AND at >= ?""")
                .params(tenantId, Timestamp.from(since))
                .query(Long.class)
                .single();
    }

    @EventListener
    void forget(TenantDeletion deletion) {
        jdbc.sql("DELETE FROM llm_call WHERE tenant_id = ?")
                .param(deletion.tenantId())
                .update();
        jdbc.sql("DELETE FROM llm_cache WHERE tenant_id = ?")
                .param(deletion.tenantId())
                .update();
    }
}
