package io.lorekeeper.document;

import java.util.List;
import java.util.UUID;

/**
 * A stored chunk as searches and zoom-outs return it: its span ({@code [start, end)} of the
 * canonical text), text, page, conversation turns and their speakers, and the score of the search
 * that found it (0 for a chunk read by ordinal).
 */
public record ChunkHit(
        UUID documentId,
        int ordinal,
        int pageOrdinal,
        int start,
        int end,
        String text,
        List<String> turnIds,
        List<String> speakers,
        double score) {

    /** Identity of the chunk, independent of the score. */
    public Key key() {
        return new Key(documentId, ordinal);
    }

    public record Key(UUID documentId, int ordinal) {}
}
