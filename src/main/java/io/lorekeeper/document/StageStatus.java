package io.lorekeeper.document;

/** Where one ingestion stage of one document stands; see {@link DocumentStage} for the moves between them. */
enum StageStatus {
    PENDING,
    RUNNING,
    DONE,
    FAILED,
    SKIPPED
}
