package io.lorekeeper.reasoning.extractive;

import java.util.UUID;

import io.lorekeeper.text.Span;

/**
 * A sentence that might answer the question, with where it is and how highly retrieval ranked its
 * chunk ({@code prior} in [0, 1], 1 for the best chunk).
 */
record Candidate(UUID documentId, Span span, String text, int chunkOrdinal, int pageOrdinal, double prior) {
}
