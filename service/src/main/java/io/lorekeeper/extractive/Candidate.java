package io.lorekeeper.extractive;

import java.util.UUID;

import io.lorekeeper.text.Span;

/**
 * A sentence that might answer the question, with where it is and how highly retrieval ranked its
 * chunk ({@code prior} in [0, 1], 1 for the best chunk), and in a conversation who said it
 * ({@code speaker}, null in prose).
 */
record Candidate(
        UUID documentId, Span span, String text, int chunkOrdinal, int pageOrdinal, double prior, String speaker) {

    Candidate(UUID documentId, Span span, String text, int chunkOrdinal, int pageOrdinal, double prior) {
        this(documentId, span, text, chunkOrdinal, pageOrdinal, prior, null);
    }
}
