package io.lorekeeper.llm;

import java.util.UUID;

/**
 * What a model call serves, recorded with it: a question or a document's ingestion, for a tenant,
 * or (neither set) work done for the tenant as a whole, such as judging an evaluation's answers.
 */
public record CallScope(UUID tenantId, UUID questionId, UUID documentId) {

    public static CallScope question(UUID tenantId, UUID questionId) {
        return new CallScope(tenantId, questionId, null);
    }

    public static CallScope document(UUID tenantId, UUID documentId) {
        return new CallScope(tenantId, null, documentId);
    }

    /** A call for the tenant that belongs to no one question or document; it still counts in the tenant's usage. */
    public static CallScope tenant(UUID tenantId) {
        return new CallScope(tenantId, null, null);
    }
}
