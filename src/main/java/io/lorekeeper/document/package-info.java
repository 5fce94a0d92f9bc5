/**
 * Documents: intake over HTTP, the canonical text every citation points into, segmentation into
 * chunks and pages, and the ingestion job that runs every {@link io.lorekeeper.document.IngestionStage}
 * in order with progress and resumption.
 *
 * <p>Owns the document's tables: the document row and its canonical text, its ingestion stages,
 * conversation sessions and turns, and its segmentation, chunks, pages and per-document lexeme
 * statistics, because this module writes them when it segments. Others read and annotate them only
 * through its public API: {@link io.lorekeeper.document.ChunkIndex} (vector and BM25 search, chunks
 * by ordinal, pages) for retrieval, {@link io.lorekeeper.document.ChunkEmbeddings} and
 * {@link io.lorekeeper.document.PageHeaders} for the memory stages that compute vectors and headers.
 * Keeping the search SQL here rather than giving the search tables to retrieval keeps one writer
 * per table and no cycle (retrieval needs documents' text; documents need nothing of retrieval).
 * Search and bulk SQL is plain {@code JdbcClient}.
 */
@io.lorekeeper.platform.OwnsTables({"document", "document_text", "ingestion_stage", "conversation_session", "conversation_turn", "chunk", "page", "document_lexeme"})
@org.springframework.modulith.ApplicationModule(allowedDependencies = {"platform", "security", "text"})
package io.lorekeeper.document;
