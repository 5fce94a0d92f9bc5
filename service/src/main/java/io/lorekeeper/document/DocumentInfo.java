package io.lorekeeper.document;

import java.util.UUID;

/** What other modules may know about a document without reading its tables. */
public record DocumentInfo(
        UUID id,
        UUID tenantId,
        String title,
        DocumentKind kind,
        String profile,
        DocumentStatus status,
        int charCount,
        int tokenCount,
        int chunkCount) {}
