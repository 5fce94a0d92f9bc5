package io.lorekeeper.document.search;

import java.util.UUID;

/**
 * A stored page: consecutive chunks {@code [firstChunk, lastChunk]} read as one unit (2,048 tokens, or
 * one conversation session), its span of the canonical text and that text, its conversation session
 * (null for plain texts) and the header the memorizer wrote for it (null until then).
 */
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
