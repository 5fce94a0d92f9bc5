package io.lorekeeper.document;

/** Where one ingestion stage (one memory) of one document stands; see {@code lifecycle.DocumentStage} for the moves between them. */
public enum StageStatus {
    PENDING,
    RUNNING,
    DONE,
    FAILED,
    SKIPPED
}
