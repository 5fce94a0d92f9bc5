package io.lorekeeper.document.search;

import java.util.List;
import java.util.UUID;

/**
 * A stored chunk as searches and zoom-outs return it: where it is ({@code [start, end)} of the
 * document's canonical text), its text, the page it belongs to, the conversation turns it covers and
 * who speaks in them, and its score under the mode that found it (cosine similarity, BM25, or fused
 * reciprocal rank; 0 for a chunk read by ordinal).
 */
public record SearchHit(
        UUID documentId,
        int chunkOrdinal,
        int pageOrdinal,
        int start,
        int end,
        String text,
        List<String> turnIds,
        List<String> speakers,
        double score) {

    public SearchHit withScore(double newScore) {
        return new SearchHit(documentId, chunkOrdinal, pageOrdinal, start, end, text, turnIds, speakers, newScore);
    }

    /** Identity of the chunk, independent of the score. */
    public ChunkKey key() {
        return new ChunkKey(documentId, chunkOrdinal);
    }

    public record ChunkKey(UUID documentId, int ordinal) {}
}
