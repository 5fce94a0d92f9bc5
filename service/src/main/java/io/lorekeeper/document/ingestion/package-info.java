/**
 * The ingestion job, inside the document module: a db-scheduler job per document
 * ({@link io.lorekeeper.document.ingestion.IngestionJob}) that runs every
 * {@link io.lorekeeper.document.stage.IngestionStage} in order
 * ({@link io.lorekeeper.document.ingestion.IngestionPipeline}): the retrieval stages first (the document
 * READY after them, FAILED when one fails), then each enrichment on its own, retried with backoff
 * ({@link io.lorekeeper.document.ingestion.EnrichmentSettings}). A running stage's progress and gaps are
 * bulk updates beside the aggregate ({@link io.lorekeeper.document.ingestion.StageProgress}): frequent
 * writes that, as versioned changes, would make concurrent changes of the same document conflict and
 * retry for nothing. Internal: the intake queues the job and asks the pipeline what a reindex rebuilds.
 */
package io.lorekeeper.document.ingestion;
