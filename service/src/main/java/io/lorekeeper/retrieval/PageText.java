package io.lorekeeper.retrieval;

import java.util.UUID;

/** A GAM page: consecutive chunks read as one unit (2,048 tokens, or one conversation session). */
public record PageText(
        UUID documentId,
        int ordinal,
        int firstChunk,
        int lastChunk,
        int start,
        int end,
        int tokenCount,
        String sessionId,
        String header,
        String text) {}
