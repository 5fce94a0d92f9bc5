package io.lorekeeper.security;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * The quotas of a tenant that does not set its own (0: no limit). They apply when keys are
 * required; the open mode of local use has none.
 *
 * @param requestsPerMinute API requests per minute and replica (a replica counts its own requests)
 * @param storedBytes       UTF-8 bytes of canonical text over all the tenant's documents
 * @param documents         number of documents
 * @param llmTokensPerDay   model tokens (prompt + completion, cache hits free) per UTC day
 */
@ConfigurationProperties("lorekeeper.quotas")
record QuotaSettings(
        @DefaultValue("600") int requestsPerMinute,
        @DefaultValue("1GB") DataSize storedBytes,
        @DefaultValue("10000") int documents,
        @DefaultValue("0") long llmTokensPerDay) {

    Quotas defaults() {
        return new Quotas(requestsPerMinute, storedBytes.toBytes(), documents, llmTokensPerDay);
    }
}
