package io.lorekeeper.memory;

import java.util.List;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import com.pgvector.PGvector;

/**
 * The GAM memorizer's memos as the retrieval toolkit reads them: every memo of some documents, and
 * the memos nearest to a query. The memorizer writes them ({@code MemorizerStore}); this module owns
 * the {@code memo} table, so the reads live here too.
 */
@Component
public class Memos {

    /** A memo: the memorizer's note about one page, with the page's span. */
    public record Memo(UUID documentId, int pageOrdinal, int start, int end, String text) {}

    /** A memo found by similarity: the page it is about, and the cosine similarity. */
    public record Similar(UUID documentId, int pageOrdinal, double score) {}

    private final JdbcClient jdbc;
    private final Embeddings embeddings;

    Memos(JdbcClient jdbc, Embeddings embeddings) {
        this.jdbc = jdbc;
        this.embeddings = embeddings;
    }

    /** Every memo of the documents, in the given document order and page order. */
    public List<Memo> of(List<UUID> documentIds) {
        UUID[] ids = documentIds.toArray(UUID[]::new);
        return jdbc.sql("""
                SELECT document_id, page_ordinal, start_offset, end_offset, text FROM memo
                WHERE document_id = ANY(?) ORDER BY array_position(?, document_id), page_ordinal""")
                .params(ids, ids)
                .query((rs, n) -> new Memo(
                        rs.getObject("document_id", UUID.class),
                        rs.getInt("page_ordinal"),
                        rs.getInt("start_offset"),
                        rs.getInt("end_offset"),
                        rs.getString("text")))
                .list();
    }

    /**
     * The k memos most similar to the query, best first: an exact scan of the named documents' memos
     * (a few hundred for a novel), so a filter never leaves it short of k. Memos never embedded are skipped.
     */
    public List<Similar> nearest(List<UUID> documentIds, String query, int k) {
        PGvector vector = new PGvector(embeddings.query(query));
        return jdbc.sql("""
                SELECT document_id, page_ordinal, 1 - (embedding <=> ?) AS score FROM memo
                WHERE document_id = ANY(?) AND embedding IS NOT NULL ORDER BY score DESC, document_id, page_ordinal LIMIT ?""")
                .params(vector, documentIds.toArray(UUID[]::new), k)
                .query((rs, n) -> new Similar(
                        rs.getObject("document_id", UUID.class), rs.getInt("page_ordinal"), rs.getDouble("score")))
                .list();
    }
}
