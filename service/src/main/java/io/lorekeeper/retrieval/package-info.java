/**
 * The retrieval toolkit every answer strategy shares: vector (pgvector HNSW, cosine), keyword (BM25
 * computed in the service from postings it keeps in memory, read from the chunks' PostgreSQL
 * full-text vectors: the document module's {@code KeywordIndex}), reciprocal-rank fusion of both,
 * zoom-out to neighbouring chunks, and pages by ordinal; all confined to the documents a caller names.
 *
 * <p>Owns no table: it fuses and shapes what the document module's {@link io.lorekeeper.document.search.ChunkIndex}
 * and memory's {@link io.lorekeeper.memory.Memos} find, so the SQL stays with the tables' writers.
 */
@org.springframework.modulith.ApplicationModule(
        allowedDependencies = {"document", "document::search", "llm", "memory", "platform", "security", "text"})
package io.lorekeeper.retrieval;
