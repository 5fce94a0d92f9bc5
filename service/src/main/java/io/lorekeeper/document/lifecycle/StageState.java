package io.lorekeeper.document.lifecycle;

import java.time.Instant;
import java.util.UUID;

import io.lorekeeper.document.StageStatus;

/**
 * A stage of one document as stored: its state, progress and retry bookkeeping.
 *
 * @param kind       {@code retrieval} or {@code enrichment}
 * @param attempts   runs started since the stage was last reset
 * @param retryAt    when a failed enrichment stage runs again; null when no retry is scheduled
 * @param generation changes on every reset, so a run that began before it cannot record an outcome
 * @param requested  an on-demand stage someone asked for (reindex naming it)
 * @param failed     items the latest run left without output (unusable model replies); the stage still ends DONE
 * @param failures   the first few of those items, each "item: reason"
 */
public record StageState(
        UUID documentId,
        String name,
        String kind,
        StageStatus status,
        int done,
        int total,
        String message,
        int attempts,
        Instant retryAt,
        int generation,
        boolean requested,
        int failed,
        java.util.List<String> failures) {

    public boolean finished() {
        return status == StageStatus.DONE || status == StageStatus.SKIPPED;
    }

    public boolean enrichment() {
        return kind.equals("enrichment");
    }
}
