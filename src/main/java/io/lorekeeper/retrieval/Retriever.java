package io.lorekeeper.retrieval;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

import io.lorekeeper.document.Documents;
import io.lorekeeper.memory.Embeddings;

/**
 * The search tools strategies call. Callers pass document ids they have already checked belong
 * to the asking tenant (see {@link Documents#requireReady}).
 */
@Service
public class Retriever {

    private final VectorSearch vectors;
    private final KeywordSearch keywords;
    private final Embeddings embeddings;
    private final JdbcClient jdbc;
    private final Documents documents;
    private final DeepSearch deep;
    private final Executor parallel = Executors.newVirtualThreadPerTaskExecutor();

    Retriever(VectorSearch vectors, KeywordSearch keywords, Embeddings embeddings, JdbcClient jdbc, Documents documents, DeepSearch deep) {
        this.vectors = vectors;
        this.deep = deep;
        this.keywords = keywords;
        this.embeddings = embeddings;
        this.jdbc = jdbc;
        this.documents = documents;
    }

    public List<SearchHit> search(List<UUID> documentIds, String query, SearchMode mode, int k) {
        return switch (mode) {
            case VECTOR -> vector(documentIds, query, k);
            case KEYWORD -> keyword(documentIds, query, k);
            case HYBRID -> hybrid(documentIds, query, k);
            case DEEP -> deep(documentIds, query, k);
        };
    }

    public List<SearchHit> vector(List<UUID> documentIds, String query, int k) {
        return vectors.search(documentIds, embeddings.query(query), k);
    }

    public List<SearchHit> keyword(List<UUID> documentIds, String query, int k) {
        return keywords.search(documentIds, query, k);
    }

    /**
     * Vector and keyword rankings, each three times deeper than k, fused by reciprocal rank. The
     * two searches run concurrently (each on its own connection), so hybrid costs about the slower
     * of the two rather than their sum.
     */
    public List<SearchHit> hybrid(List<UUID> documentIds, String query, int k) {
        int depth = Math.max(30, 3 * k);
        CompletableFuture<List<SearchHit>> byKeyword = CompletableFuture.supplyAsync(() -> keyword(documentIds, query, depth), parallel);
        List<SearchHit> byVector = vector(documentIds, query, depth);
        return RankFusion.fuse(List.of(byVector, byKeyword.join()), k);
    }

    /**
     * Hybrid search, then a second retrieval from its best hits, fused with it: for questions whose
     * evidence sits in several places. About twice the cost of {@link #hybrid}. See {@link DeepSearch}.
     */
    public List<SearchHit> deep(List<UUID> documentIds, String query, int k) {
        return deep.search(documentIds, query, k);
    }

    /** The chunks of a document with ordinals in {@code [from, to]}, in order. */
    public List<SearchHit> chunks(UUID documentId, int from, int to) {
        return jdbc.sql("SELECT " + ChunkRows.COLUMNS + " FROM chunk c WHERE c.document_id = ? AND c.ordinal BETWEEN ? AND ? ORDER BY c.ordinal")
                .params(documentId, from, to)
                .query((rs, n) -> ChunkRows.hit(rs, 0)).list();
    }

    /** Zoom-out: the chunks within {@code window} ordinals of a chunk, in document order (the chunk included). */
    public List<SearchHit> neighbours(UUID documentId, int chunkOrdinal, int window) {
        return chunks(documentId, chunkOrdinal - window, chunkOrdinal + window);
    }

    /**
     * Zoom-out that stays inside the chunk's page: for a conversation, the turns of the same session
     * (a window that ran into the next session would pair one day's words with another day's date).
     * Empty when the document has no such chunk.
     */
    public List<SearchHit> neighboursInPage(UUID documentId, int chunkOrdinal, int window) {
        return jdbc.sql("SELECT " + ChunkRows.COLUMNS + " FROM chunk c WHERE c.document_id = ? AND c.ordinal BETWEEN ? AND ?"
                        + " AND c.page_ordinal = (SELECT page_ordinal FROM chunk WHERE document_id = ? AND ordinal = ?) ORDER BY c.ordinal")
                .params(documentId, chunkOrdinal - window, chunkOrdinal + window, documentId, chunkOrdinal)
                .query((rs, n) -> ChunkRows.hit(rs, 0)).list();
    }

    public Optional<PageText> page(UUID documentId, int ordinal) {
        return jdbc.sql("SELECT * FROM page WHERE document_id = ? AND ordinal = ?").params(documentId, ordinal)
                .query((rs, n) -> {
                    int start = rs.getInt("start_offset");
                    int end = rs.getInt("end_offset");
                    return new PageText(documentId, ordinal, rs.getInt("first_chunk"), rs.getInt("last_chunk"), start, end,
                            rs.getInt("token_count"), rs.getString("session_id"), rs.getString("header"),
                            documents.text(documentId).substring(start, end));
                }).optional();
    }

    /**
     * The header line of a conversation page ({@code [Session 3, 7:55 pm on 9 June, 2023]}) with
     * its span: turns say "yesterday", only the header says which day that was. Empty for pages of
     * plain texts.
     */
    public Optional<SessionHeader> sessionHeader(UUID documentId, int pageOrdinal) {
        return page(documentId, pageOrdinal)
                .filter(page -> page.sessionId() != null && page.text().startsWith("[Session "))
                .map(page -> {
                    String line = page.text().substring(0, page.text().indexOf(']') + 1);
                    return new SessionHeader(documentId, page.start(), page.start() + line.length(), line);
                });
    }

    public record SessionHeader(UUID documentId, int start, int end, String text) {
    }

    /** A GAM memo: the memorizer's note about one page, with the page's span. */
    public record MemoText(UUID documentId, int pageOrdinal, int start, int end, String text) {
    }

    /** Every memo of the documents, in document and page order; empty when the memos stage has not run. */
    public List<MemoText> memos(List<UUID> documentIds) {
        return jdbc.sql("""
                SELECT document_id, page_ordinal, start_offset, end_offset, text FROM memo
                WHERE document_id = ANY(?) ORDER BY array_position(?, document_id), page_ordinal""")
                .params(documentIds.toArray(UUID[]::new), documentIds.toArray(UUID[]::new))
                .query((rs, n) -> new MemoText(rs.getObject("document_id", UUID.class), rs.getInt("page_ordinal"),
                        rs.getInt("start_offset"), rs.getInt("end_offset"), rs.getString("text")))
                .list();
    }

    /** A memo found by similarity to a query: the page it is about, and the cosine similarity. */
    public record MemoHit(UUID documentId, int pageOrdinal, double score) {
    }

    /**
     * The memos most similar to the query (cosine over their embeddings), best first: pages found by
     * what the memorizer wrote about them rather than by their chunks. An exact scan of the named
     * documents' memos (a few hundred for a novel), so a filter never leaves it short of k. Memos never
     * embedded are skipped.
     */
    public List<MemoHit> memoVector(List<UUID> documentIds, String query, int k) {
        com.pgvector.PGvector vector = new com.pgvector.PGvector(embeddings.query(query));
        return jdbc.sql("""
                SELECT document_id, page_ordinal, 1 - (embedding <=> ?) AS score FROM memo
                WHERE document_id = ANY(?) AND embedding IS NOT NULL ORDER BY score DESC, document_id, page_ordinal LIMIT ?""")
                .params(vector, documentIds.toArray(UUID[]::new), k)
                .query((rs, n) -> new MemoHit(rs.getObject("document_id", UUID.class), rs.getInt("page_ordinal"), rs.getDouble("score")))
                .list();
    }

    public int pageCount(UUID documentId) {
        return jdbc.sql("SELECT count(*) FROM page WHERE document_id = ?").param(documentId).query(Integer.class).single();
    }
}
