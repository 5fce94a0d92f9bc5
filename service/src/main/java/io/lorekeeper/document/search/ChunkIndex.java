package io.lorekeeper.document.search;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import io.lorekeeper.document.Documents;

/**
 * The read side of a document's segmentation for the retrieval toolkit: vector and BM25 search over
 * its chunks, chunks by ordinal, and its pages. The chunks, pages and lexeme statistics are this
 * module's tables (it writes them when it segments), so the search SQL lives here too, on
 * {@code JdbcClient}: bulk, vector and full-text queries are not aggregate state. Callers pass
 * document ids they have checked belong to the asking tenant.
 */
@Component
public class ChunkIndex {

    private final VectorSearch vectors;
    private final KeywordSearch keywords;
    private final JdbcClient jdbc;

    private final Documents documents;

    ChunkIndex(VectorSearch vectors, KeywordSearch keywords, JdbcClient jdbc, Documents documents) {
        this.vectors = vectors;
        this.keywords = keywords;
        this.jdbc = jdbc;
        this.documents = documents;
    }

    /** The k chunks nearest to the query vector (cosine), best first; only embedded chunks. */
    public List<SearchHit> nearest(List<UUID> documentIds, float[] query, int k) {
        return vectors.search(documentIds, query, k);
    }

    /** The k best chunks by BM25 over the query's terms, best first. */
    public List<SearchHit> keyword(List<UUID> documentIds, String query, int k) {
        return keywords.search(documentIds, query, k);
    }

    /**
     * BM25 of the query's own terms plus feedback terms (a deep search's second pass): each feedback
     * term scores its BM25 times its weight and selects candidates like a query term.
     */
    public List<SearchHit> keyword(List<UUID> documentIds, String query, List<KeywordTerm> feedback, int k) {
        return keywords.search(documentIds, query, feedback, k);
    }

    /** The lexemes of the given chunks with their statistics over the searched documents; the query's own left out. */
    public List<FeedbackLexeme> feedbackLexemes(List<UUID> documentIds, List<SearchHit.ChunkKey> chunks, String query) {
        return keywords.feedbackLexemes(documentIds, chunks, query);
    }

    /** The stored vectors of the given chunks (those never embedded are left out). */
    public List<float[]> vectorsOf(List<SearchHit.ChunkKey> chunks) {
        return vectors.vectorsOf(chunks);
    }

    /** The chunks of a document with ordinals in {@code [from, to]}, in order. */
    public List<SearchHit> chunks(UUID documentId, int from, int to) {
        return jdbc.sql("SELECT " + ChunkRows.COLUMNS
                        + " FROM chunk c WHERE c.document_id = ? AND c.ordinal BETWEEN ? AND ? ORDER BY c.ordinal")
                .params(documentId, from, to)
                .query((rs, n) -> ChunkRows.hit(rs, 0))
                .list();
    }

    /** The chunks within {@code window} ordinals of a chunk that are in its page, in order; empty when there is no such chunk. */
    public List<SearchHit> chunksInPage(UUID documentId, int chunkOrdinal, int window) {
        return jdbc.sql(
                        "SELECT " + ChunkRows.COLUMNS
                                + " FROM chunk c WHERE c.document_id = ? AND c.ordinal BETWEEN ? AND ?"
                                + " AND c.page_ordinal = (SELECT page_ordinal FROM chunk WHERE document_id = ? AND ordinal = ?) ORDER BY c.ordinal")
                .params(documentId, chunkOrdinal - window, chunkOrdinal + window, documentId, chunkOrdinal)
                .query((rs, n) -> ChunkRows.hit(rs, 0))
                .list();
    }

    /** Where a chunk is and how big, for strategies that group chunks into larger units. */
    public record ChunkSpan(int ordinal, int pageOrdinal, int start, int end, int tokenCount) {}

    /** The chunks after ordinal {@code afterChunk}, in order. */
    public List<ChunkSpan> spansAfter(UUID documentId, int afterChunk) {
        return jdbc.sql("SELECT ordinal, page_ordinal, start_offset, end_offset, token_count FROM chunk "
                        + "WHERE document_id = ? AND ordinal > ? ORDER BY ordinal")
                .params(documentId, afterChunk)
                .query((rs, n) -> new ChunkSpan(rs.getInt(1), rs.getInt(2), rs.getInt(3), rs.getInt(4), rs.getInt(5)))
                .list();
    }

    /** The page with its text (read through the documents' text cache); empty when the document has no such page. */
    public Optional<PageText> page(UUID documentId, int ordinal) {
        record Row(
                int firstChunk, int lastChunk, int start, int end, int tokenCount, String sessionId, String header) {}
        return jdbc.sql("SELECT * FROM page WHERE document_id = ? AND ordinal = ?")
                .params(documentId, ordinal)
                .query((rs, n) -> new Row(
                        rs.getInt("first_chunk"),
                        rs.getInt("last_chunk"),
                        rs.getInt("start_offset"),
                        rs.getInt("end_offset"),
                        rs.getInt("token_count"),
                        rs.getString("session_id"),
                        rs.getString("header")))
                .optional()
                .map(page -> new PageText(
                        documentId,
                        ordinal,
                        page.firstChunk(),
                        page.lastChunk(),
                        page.start(),
                        page.end(),
                        page.tokenCount(),
                        page.sessionId(),
                        page.header(),
                        documents.text(documentId).substring(page.start(), page.end())));
    }

    public int pageCount(UUID documentId) {
        return jdbc.sql("SELECT count(*) FROM page WHERE document_id = ?")
                .param(documentId)
                .query(Integer.class)
                .single();
    }
}
