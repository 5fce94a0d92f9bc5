/**
 * Documents: intake over HTTP, the canonical text every citation points into, segmentation into
 * chunks and pages, and the ingestion job that runs every {@link io.lorekeeper.document.stage.IngestionStage}
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
 * lists, stage states), and a running stage's progress and gaps ({@code DocumentStore.stageProgress},
 * {@code DocumentStore.itemFailed}: frequent writes that, as versioned changes, would make concurrent
 * changes of the same document conflict and retry for nothing).
 *
 * <p>An LLM-built memory degrades per item: an item whose model reply stays unusable after the
 * gateway's repair is reported through {@link io.lorekeeper.document.stage.StageRun#itemFailed}, counted on
 * its stage, and left as a gap; the stage still ends DONE, and a reindex without stages (or appended
 * sessions) runs it again for its gaps only. {@link io.lorekeeper.document.MemoryBuilds} lets a
 * question start building an on-demand memory its strategy needs, as a reindex naming it would.
 *
 * <p>Uploaded files ({@code FileExtractor}): the format is detected from the bytes with Tika and
 * the text extracted by that format's Tika parser on a bounded pool under a deadline, cleaned before
 * offsets exist; a file's pages and headings are kept as spans ({@code document_section}) that
 * citations and segmentation use, and the file's name, type, size and hash ({@code document_file}).
 *
 * <p>Owns the document's tables: the document row and its canonical text, its ingestion stages,
 * conversation sessions and turns, an uploaded file's record and its pages and sections, and its
 * segmentation, chunks, pages and per-document lexeme statistics, because this module writes them when it segments. Others read and annotate them only
 * through its public API: the base package, the named interface {@code document::search}
 * ({@link io.lorekeeper.document.search.ChunkIndex}: vector and BM25 search, chunks by ordinal, pages) for
 * retrieval and the strategies, the named interface {@code document::stage} (the ingestion stage SPI) for
 * modules that build a memory, {@link io.lorekeeper.document.ChunkEmbeddings} and
 * {@link io.lorekeeper.document.PageHeaders} for the memory stages that compute vectors and headers.
 * Keeping the search SQL here rather than giving the search tables to retrieval keeps one writer
 * per table and no cycle (retrieval needs documents' text; documents need nothing of retrieval).
 */
@io.lorekeeper.platform.OwnsTables({
    "document",
    "document_text",
    "ingestion_stage",
    "conversation_session",
    "conversation_turn",
    "chunk",
    "page",
    "document_lexeme",
    "document_section",
    "document_file"
})
@org.springframework.modulith.ApplicationModule(allowedDependencies = {"platform", "security", "text"})
package io.lorekeeper.document;
