package io.lorekeeper.document.segmentation;

import java.util.List;

import io.lorekeeper.text.Span;

/** The chunks and pages of a document, every one a span of its canonical text. */
record Segmentation(List<Chunk> chunks, List<Page> pages) {

    /**
     * @param lead what keyword search indexes before the chunk's text without it being part of the
     *             chunk: in a conversation, the chunk before it in the same session; null for none
     * @param speakers who speaks in the chunk (conversations), sorted; empty for plain texts
     */
    record Chunk(
            int ordinal,
            int pageOrdinal,
            Span span,
            String text,
            int tokens,
            List<String> turnIds,
            String lead,
            List<String> speakers) {}

    record Page(int ordinal, int firstChunk, int lastChunk, Span span, int tokens, String sessionId) {}
}
