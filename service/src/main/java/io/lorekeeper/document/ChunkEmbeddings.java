package io.lorekeeper.document;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import com.pgvector.PGvector;

/**
 * The embedding column of this module's chunks, for the memory stage that computes the vectors and
 * the strategies that build on them: which chunks still need one, storing a batch, clearing them
 * for a re-embed, and the mean vector of a run of chunks. The vectors are memory's work; the rows
 * are this module's, so the SQL that touches them is here.
 */
@Component
public class ChunkEmbeddings {

    /** A chunk without a vector: its row id, text and context (its page's header, when one was written). */
    public record Pending(long id, String text, String context) {}

    /** A chunk's text and size, in document order. */
    public record SizedText(String text, int tokenCount) {}

    private final JdbcClient jdbc;
    private final JdbcTemplate batch;

    ChunkEmbeddings(JdbcClient jdbc, JdbcTemplate batch) {
        this.jdbc = jdbc;
        this.batch = batch;
    }

    public int chunkCount(UUID documentId) {
        return jdbc.sql("SELECT count(*) FROM chunk WHERE document_id = ?")
                .param(documentId)
                .query(Integer.class)
                .single();
    }

    public int embeddedCount(UUID documentId) {
        return jdbc.sql("SELECT count(*) FROM chunk WHERE document_id = ? AND embedding IS NOT NULL")
                .param(documentId)
                .query(Integer.class)
                .single();
    }

    /** The first {@code limit} chunks without a vector, in order (chunk_unembedded_idx). */
    public List<Pending> pending(UUID documentId, int limit) {
        return jdbc.sql(
                        "SELECT id, text, context FROM chunk WHERE document_id = ? AND embedding IS NULL ORDER BY ordinal LIMIT ?")
                .params(documentId, limit)
                .query(ChunkEmbeddings::asPending)
                .list();
    }

    private static Pending asPending(java.sql.ResultSet rs, int row) throws java.sql.SQLException {
        return new Pending(rs.getLong("id"), rs.getString("text"), rs.getString("context"));
    }

    /** Stores the vectors of the chunks with these row ids, in one batch. */
    public void store(List<Long> chunkIds, List<float[]> vectors) {
        storeInto("embedding", chunkIds, vectors);
    }

    private void storeInto(String column, List<Long> chunkIds, List<float[]> vectors) {
        List<Object[]> rows = new ArrayList<>(chunkIds.size());
        for (int i = 0; i < chunkIds.size(); i++) {
            rows.add(new Object[] {new PGvector(vectors.get(i)), chunkIds.get(i)});
        }
        batch.batchUpdate("UPDATE chunk SET " + column + " = ? WHERE id = ?", rows);
    }

    /** Forgets every vector of the document (a re-embed with another model). */
    public void clear(UUID documentId) {
        jdbc.sql("UPDATE chunk SET embedding = NULL WHERE document_id = ?")
                .param(documentId)
                .update();
    }

    /**
     * For an embedding change: the first {@code limit} chunks of the document with a live vector but no
     * next one ({@code embedding_next}, which the change added), in order.
     */
    public List<Pending> pendingNext(UUID documentId, int limit) {
        return jdbc.sql("""
                        SELECT id, text, context FROM chunk
                        WHERE document_id = ? AND embedding IS NOT NULL AND embedding_next IS NULL
                        ORDER BY ordinal LIMIT ?""")
                .params(documentId, limit)
                .query(ChunkEmbeddings::asPending)
                .list();
    }

    /** Stores the next vectors of the chunks with these row ids, in one batch. */
    public void storeNext(List<Long> chunkIds, List<float[]> vectors) {
        storeInto("embedding_next", chunkIds, vectors);
    }

    /** The mean of the next vectors of chunks {@code [first, last]} (see {@link #pendingNext}); empty when none has one. */
    public Optional<float[]> meanNext(UUID documentId, int first, int last) {
        return meanOf("embedding_next", documentId, first, last);
    }

    /** Every document with chunks, oldest first: what an embedding change fills. */
    public List<UUID> documentsWithChunks() {
        return jdbc.sql("""
                        SELECT d.id FROM document d
                        WHERE EXISTS (SELECT 1 FROM chunk c WHERE c.document_id = d.id)
                        ORDER BY d.created_at, d.id""").query(UUID.class).list();
    }

    /** The mean of the vectors of chunks {@code [first, last]}; empty when none of them has one. */
    public Optional<float[]> mean(UUID documentId, int first, int last) {
        return meanOf("embedding", documentId, first, last);
    }

    private Optional<float[]> meanOf(String column, UUID documentId, int first, int last) {
        return jdbc
                .sql("SELECT avg(" + column + ")::text FROM chunk WHERE document_id = ? AND ordinal BETWEEN ? AND ?")
                .params(documentId, first, last)
                .query((rs, n) -> rs.getString(1))
                .list()
                .stream()
                .filter(java.util.Objects::nonNull)
                .findFirst()
                .map(VectorText::parse);
    }

    /** Every chunk's text and token count, in order (for measuring embedding throughput). */
    public List<SizedText> texts(UUID documentId) {
        return jdbc.sql("SELECT text, token_count FROM chunk WHERE document_id = ? ORDER BY ordinal")
                .param(documentId)
                .query((rs, n) -> new SizedText(rs.getString(1), rs.getInt(2)))
                .list();
    }

    /** A chunk's text, its ordinal and where it starts in the document. */
    public record ChunkText(int ordinal, int start, String text) {}

    /** Up to {@code limit} chunks from ordinal {@code fromOrdinal} on, in order. */
    public List<ChunkText> chunkTexts(UUID documentId, int fromOrdinal, int limit) {
        return jdbc.sql("""
                        SELECT ordinal, start_offset, text FROM chunk
                        WHERE document_id = ? AND ordinal >= ? ORDER BY ordinal LIMIT ?""")
                .params(documentId, fromOrdinal, limit)
                .query((rs, n) -> new ChunkText(rs.getInt(1), rs.getInt(2), rs.getString(3)))
                .list();
    }
}
