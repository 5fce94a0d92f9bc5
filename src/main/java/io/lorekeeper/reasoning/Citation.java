package io.lorekeeper.reasoning;

import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Evidence for an answer: {@code quote} is exactly the canonical text in {@code [start, end)} of
 * the document (UTF-16 code units), and {@code turnId} names the conversation turn it lies in.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Citation(UUID documentId, int start, int end, String quote, String turnId) {

    public static Citation of(UUID documentId, int start, int end, String quote) {
        return new Citation(documentId, start, end, quote, null);
    }

    public Citation withTurnId(String id) {
        return new Citation(documentId, start, end, quote, id);
    }
}
