/**
 * Search over a document's chunks, the named interface {@code document::search}: the read side of its
 * segmentation for retrieval and the strategies. {@link io.lorekeeper.document.search.ChunkIndex} is the
 * way in (vector and BM25 search, chunks by ordinal, pages with their text); what it returns is
 * {@link io.lorekeeper.document.search.SearchHit} (a stored chunk with the score of the search that found
 * it) and {@link io.lorekeeper.document.search.PageText}, the one record of each across the modules.
 *
 * <p>Behind it, package-private: BM25 in PostgreSQL ({@code KeywordSearch}) or from the postings each
 * replica keeps in memory ({@code KeywordIndex}, {@code KeywordPostings}, ranked by {@code MaxScore}),
 * nearest neighbours over pgvector ({@code VectorSearch}), and the index's gauges. The chunks, pages and
 * lexeme statistics they read are this module's tables, written when it segments; keeping the search
 * SQL here keeps one writer per table and no cycle.
 */
@org.springframework.modulith.NamedInterface("search")
package io.lorekeeper.document.search;
