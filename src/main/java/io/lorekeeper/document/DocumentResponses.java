package io.lorekeeper.document;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;

/** Response bodies of the document API. */
final class DocumentResponses {

    private DocumentResponses() {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record DocumentView(UUID id, String title, DocumentKind kind, String profile, DocumentStatus status,
            String failureReason, Map<String, Object> metadata, int charCount, int tokenCount, int chunkCount,
            Instant createdAt, Instant updatedAt, List<StageView> stages) {
    }

    /**
     * @param kind     {@code retrieval} (the document is READY once these are done) or {@code enrichment}
     *                 (an LLM-built memory with a state of its own)
     * @param status   PENDING, RUNNING, DONE, SKIPPED (message says why and how to build it) or FAILED (message
     *                 says why; {@code retryAt} when the next attempt is scheduled, absent when attempts are spent)
     * @param attempts runs started since the stage was last reset
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record StageView(String name, String kind, String status, int done, int total, String message, Integer attempts,
            Instant retryAt) {
    }

    record DocumentPage(List<DocumentView> items, int page, int size, long total) {
    }

    record TextSpan(UUID documentId, int start, int end, String text) {
    }

    record Accepted(UUID id, DocumentStatus status, boolean created) {
    }

    /** Where a conversation turn sits in the canonical text: {@code [start, end)}. */
    record TurnSpan(String turnId, String sessionId, String speaker, int start, int end) {
    }

    /** The conversation's id and new status, and what each appended session became. */
    record SessionsAppended(UUID id, DocumentStatus status, List<AppendedSession> sessions) {
    }

    /** @param number 1-based position in the conversation, as in the {@code [Session n]} line */
    record AppendedSession(String id, int number, int start, int end, List<String> turnIds) {
    }
}
