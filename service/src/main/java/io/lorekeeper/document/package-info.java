/**
 * Documents: the module's API for the rest of the service and its HTTP edge. Intake, segmentation,
 * ingestion and the aggregate live in internal sub-packages, one concern each; only this package and
 * the named interfaces {@code document::search} and {@code document::stage} are reachable from other
 * modules (Spring Modulith refuses the rest, {@code ModularityTest} checks it).
 *
 * <p>Here: {@link io.lorekeeper.document.Documents} (look documents up within a tenant, their canonical
 * text, where a span lies, the state of their memories), {@link io.lorekeeper.document.MemoryBuilds}
 * (a question starts building an on-demand memory its strategy needs, as a reindex naming it would),
 * {@link io.lorekeeper.document.DocumentCatalog} (the operations the MCP server offers),
 * {@link io.lorekeeper.document.ChunkEmbeddings} and {@link io.lorekeeper.document.PageHeaders} (what the
 * memory stages write onto chunks and pages), the records and events other modules read
 * ({@link io.lorekeeper.document.DocumentInfo}, {@link io.lorekeeper.document.MemoryState},
 * {@link io.lorekeeper.document.DocumentReady}, {@link io.lorekeeper.document.DocumentDeleted}),
 * {@link io.lorekeeper.document.FileExtractionProcess} (the entry point of the application's
 * {@code main} into file extraction), and the HTTP edge: {@code DocumentController} with its requests
 * and responses, {@code UploadAdmission} (the upload filter) and {@code DocumentViews} (the API's reads).
 *
 * <p>Inside, by concern: {@code document.lifecycle}, the {@code Document} aggregate (JPA, versioned; its
 * stages are child entities) whose methods make the legal state changes and refuse the others with
 * {@link io.lorekeeper.platform.IllegalTransitionException}, with the reads of document and stage rows
 * every concern shares; {@code document.intake}, validation, the canonical text every citation points
 * into and what is recorded with it (conversation sessions and turns, an uploaded file and its
 * sections), appended sessions; {@code document.segmentation}, chunks and pages and the keyword
 * statistics derived from them; {@code document.ingestion}, the job that runs every
 * {@link io.lorekeeper.document.stage.IngestionStage} in order with progress, gaps and resumption;
 * {@code document.files}, uploaded files to text in a process of its own. Becoming READY and being
 * deleted are published as {@link io.lorekeeper.document.DocumentReady} and
 * {@link io.lorekeeper.document.DocumentDeleted} through Spring Modulith's event publication registry.
 *
 * <p>An LLM-built memory degrades per item: an item whose model reply stays unusable after the
 * gateway's repair is reported through {@link io.lorekeeper.document.stage.StageRun#itemFailed}, counted on
 * its stage, and left as a gap; the stage still ends DONE, and a reindex without stages (or appended
 * sessions) runs it again for its gaps only.
 *
 * <p>Owns the document's tables: the document row and its canonical text, its ingestion stages,
 * conversation sessions and turns, an uploaded file's record and its pages and sections, and its
 * segmentation, chunks, pages and per-document lexeme statistics, because this module writes them when
 * it segments. Others read and annotate them only through its public API: this package, the named
 * interface {@code document::search} ({@link io.lorekeeper.document.search.ChunkIndex}: vector and BM25
 * search, chunks by ordinal, pages) for retrieval and the strategies, the named interface
 * {@code document::stage} (the ingestion stage SPI) for modules that build a memory. Keeping the search
 * SQL here rather than giving the search tables to retrieval keeps one writer per table and no cycle
 * (retrieval needs documents' text; documents need nothing of retrieval).
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
