package io.lorekeeper.llm;

import java.util.UUID;

/** What a model call serves, recorded with it: a question or a document's ingestion, for a tenant. */
public record CallScope(UUID tenantId, UUID questionId, UUID documentId) {

    public static CallScope question(UUID tenantId, UUID questionId) {
        return new CallScope(tenantId, questionId, null);
    }

    public static CallScope document(UUID tenantId, UUID documentId) {
        return new CallScope(tenantId, null, documentId);
    }
}
