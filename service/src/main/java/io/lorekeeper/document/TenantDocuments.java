package io.lorekeeper.document;

import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import io.lorekeeper.document.ingestion.IngestionJob;
import io.lorekeeper.security.StoredContent;

/**
 * A tenant's documents as the tenancy module needs them without reading this module's tables: what
 * they take up (for the storage quotas). When the tenant is deleted, {@link IngestionJob.IngestionScheduler}
 * cancels their waiting ingestion jobs; the documents themselves, and every row derived from them, go
 * with the tenant's row by the schema's cascade.
 */
@Component
class TenantDocuments implements StoredContent {

    private final JdbcClient jdbc;

    TenantDocuments(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** One aggregate over the tenant's rows ({@code text_bytes} is kept by a trigger on the text, see V9). */
    @Override
    public Stored of(UUID tenantId) {
        return jdbc.sql("SELECT count(*), coalesce(sum(text_bytes), 0) FROM document WHERE tenant_id = ?")
                .param(tenantId)
                .query((rs, n) -> new Stored(rs.getLong(1), rs.getLong(2)))
                .single();
    }
}
