package io.lorekeeper.document;

import java.time.Instant;
import java.util.UUID;

/**
 * Where one memory (an ingestion stage's output) of one document stands, as strategies and the
 * question module see it.
 *
 * @param reason  why it was skipped or failed, with how to build it; null otherwise
 * @param retryAt when a failed memory is tried again, or null
 * @param onDemand a memory built only when asked for, which someone (a reindex, a question) asked for
 */
public record MemoryState(
        UUID documentId, String stage, StageStatus status, String reason, Instant retryAt, boolean onDemand) {

    public boolean ready() {
        return status == StageStatus.DONE;
    }

    /** Still being built: a question that needs it can wait for it. */
    public boolean building() {
        return status == StageStatus.PENDING || status == StageStatus.RUNNING;
    }

    /** Failed, with another attempt scheduled ({@link #retryAt}): a question that needs it can wait for it too. */
    public boolean retrying() {
        return status == StageStatus.FAILED && retryAt != null;
    }
}
