package io.lorekeeper.document;

import java.util.List;

import io.lorekeeper.text.Span;

/** The chunks and pages of a document, every one a span of its canonical text. */
record Segmentation(List<Chunk> chunks, List<Page> pages) {

    record Chunk(int ordinal, int pageOrdinal, Span span, String text, int tokens, List<String> turnIds) {}

    record Page(int ordinal, int firstChunk, int lastChunk, Span span, int tokens, String sessionId) {}
}
