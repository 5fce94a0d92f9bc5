package io.lorekeeper.security;

import java.util.UUID;

/**
 * What a tenant stores, for the storage quotas: implemented by the module that owns the documents,
 * so that security checks quotas without reading another module's tables.
 */
public interface StoredContent {

    /**
     * @param documents documents the tenant stores
     * @param bytes     their canonical text in UTF-8 bytes
     */
    record Stored(long documents, long bytes) {}

    Stored of(UUID tenantId);
}
