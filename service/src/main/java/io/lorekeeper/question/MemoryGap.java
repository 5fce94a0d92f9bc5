package io.lorekeeper.question;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.lorekeeper.document.MemoryState;
import io.lorekeeper.document.StageStatus;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * A memory of one of the question's documents that is not ready: one the question waits for (its
 * {@code waitingFor} list, the {@code run.waiting} event) or an optional one the strategy ran
 * without ({@code run.degraded}).
 *
 * @param state   the memory's stage status
 * @param reason  why it was skipped or failed, when it was
 * @param retryAt when a failed memory is tried again
 * @param why     why the question waits for it, when it does
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(name = "MemoryGap", description = "A memory of a document that is not ready, and why that matters")
public record MemoryGap(
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) UUID documentId,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) String stage,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) StageStatus state,
        String reason,
        Instant retryAt,
        String why) {

    static MemoryGap of(MemoryState m) {
        return new MemoryGap(m.documentId(), m.stage(), m.status(), m.reason(), retryAt(m), why(m));
    }

    static List<MemoryGap> of(List<MemoryState> memories) {
        return memories.stream().map(MemoryGap::of).toList();
    }

    private static Instant retryAt(MemoryState m) {
        return m.retrying() ? m.retryAt() : null;
    }

    private static String why(MemoryState m) {
        if (m.retrying()) {
            return "it failed and is tried again at " + m.retryAt() + "; the question waits for it";
        }
        if (m.building() && m.onDemand()) {
            return "built on demand (asked for by a question or a reindex); the question waits for it";
        }
        return m.building() ? "being built; the question waits for it" : null;
    }
}
