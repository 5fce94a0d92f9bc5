/**
 * Documents: intake over HTTP, the canonical text every citation points into, segmentation into
 * chunks and pages, and the ingestion job that runs every {@link io.lorekeeper.document.IngestionStage}
 * in order with progress and resumption.
 *
 * <p>Persistence: a document with its ingestion stages is the {@code Document} aggregate (JPA,
 * versioned; the stages are child entities, so a change to either bumps the one version). Its
 * methods make the legal state changes (QUEUED, INGESTING, READY or FAILED; a stage's run from
 * PENDING to RUNNING to DONE or FAILED; rebuilds, resumption and appended sessions queueing it
 * again) and refuse the others with {@link io.lorekeeper.platform.IllegalTransitionException}. The
 * intake stores it and schedules its job in one transaction, as do a reindex and an append, which
 * lock the row first; the job changes it through {@code DocumentStore.change}, which re-applies a
 * change that lost a race to another writer on the fresh state. Becoming READY and being deleted
 * are published as {@link io.lorekeeper.document.DocumentReady} and
 * {@link io.lorekeeper.document.DocumentDeleted} through Spring Modulith's event publication
 * registry, for other modules' {@code @ApplicationModuleListener}s.
 *
 * <p>Plain SQL on {@code JdbcClient}, where bulk rows are the right tool: the canonical text
 * ({@code document_text}), conversation sessions and turns, chunks and pages (batch inserts),
 * per-document lexeme statistics and the counts derived from the chunks, the API's reads (views,
 * lists, stage states), and a running stage's progress ({@code DocumentStore.stageProgress}: a
 * frequent write that, as a versioned change, would make concurrent changes of the same document
 * conflict and retry for nothing).
 */
package io.lorekeeper.document;
