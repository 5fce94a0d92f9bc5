/**
 * Memory built from segmented documents, as ingestion stages: embeddings of every chunk, and the
 * GAM memorizer's memos and page headers (written by the LLM, skipped when none is configured).
 * Further LLM-written layers (triples, summaries, graphs) join as further stages.
 *
 * <p>Owns {@code memo}: the memorizer writes memos ({@code MemorizerStore}) and retrieval reads them
 * through {@link io.lorekeeper.memory.Memos}; and {@code sentence_vector}, the sentences memory
 * ({@link io.lorekeeper.memory.SentenceVectors}) that the extractive strategy scores sentences with. The vectors and headers it computes for chunks and
 * pages are written through the document module's API, which owns those rows.
 */
@io.lorekeeper.platform.OwnsTables({
    "memo",
    "sentence_vector",
    "embedding_model",
    "embedding_change",
    "embedding_change_document"
})
@org.springframework.modulith.ApplicationModule(
        allowedDependencies = {"document", "document::stage", "llm", "platform", "text"})
package io.lorekeeper.memory;
