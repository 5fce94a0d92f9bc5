package io.lorekeeper.document.segmentation;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;

import org.springframework.jdbc.core.BatchPreparedStatementSetter;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;

/**
 * A document's segmentation ({@code chunk}, {@code page}) and what is derived from its chunks: the
 * document's chunk, token and term counts and its per-lexeme document frequencies
 * ({@code document_lexeme}), which the keyword search reads. Written in batches, in one transaction
 * per segmentation (on {@link JdbcTemplate}: batches, and statements with no result to map).
 */
@Repository
public class SegmentationStore {

    private final JdbcTemplate jdbc;

    SegmentationStore(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Transactional
    void replace(UUID documentId, Segmentation segmentation) {
        delete(documentId);
        append(documentId, segmentation);
    }

    /** Adds chunks and pages after the stored ones (a conversation that grew), in one transaction. */
    @Transactional
    void append(UUID documentId, Segmentation segmentation) {
        List<Segmentation.Chunk> chunks = segmentation.chunks();
        jdbc.batchUpdate("""
                INSERT INTO chunk (document_id, ordinal, page_ordinal, start_offset, end_offset, text, token_count, turn_ids,
                                   lead, speakers)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""", new BatchPreparedStatementSetter() {
            @Override
            public void setValues(PreparedStatement ps, int i) throws SQLException {
                Segmentation.Chunk c = chunks.get(i);
                ps.setObject(1, documentId);
                ps.setInt(2, c.ordinal());
                ps.setInt(3, c.pageOrdinal());
                ps.setInt(4, c.span().start());
                ps.setInt(5, c.span().end());
                ps.setString(6, c.text());
                ps.setInt(7, c.tokens());
                ps.setArray(
                        8, ps.getConnection().createArrayOf("text", c.turnIds().toArray()));
                ps.setString(9, c.lead());
                ps.setArray(
                        10,
                        ps.getConnection().createArrayOf("text", c.speakers().toArray()));
            }

            @Override
            public int getBatchSize() {
                return chunks.size();
            }
        });
        jdbc.batchUpdate("""
                INSERT INTO page (document_id, ordinal, first_chunk, last_chunk, start_offset, end_offset, token_count, session_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)""", segmentation.pages(), 1000, (ps, p) -> {
            ps.setObject(1, documentId);
            ps.setInt(2, p.ordinal());
            ps.setInt(3, p.firstChunk());
            ps.setInt(4, p.lastChunk());
            ps.setInt(5, p.span().start());
            ps.setInt(6, p.span().end());
            ps.setInt(7, p.tokens());
            ps.setString(8, p.sessionId());
        });
        refreshCounts(documentId);
    }

    @Transactional
    void delete(UUID documentId) {
        jdbc.update("DELETE FROM page WHERE document_id = ?", documentId);
        jdbc.update("DELETE FROM chunk WHERE document_id = ?", documentId);
        refreshCounts(documentId);
    }

    /** Where the stored segmentation ends: the end of its last chunk, and the next chunk and page ordinals. */
    Segmenter.Continuation end(UUID documentId) {
        return jdbc.queryForObject(
                """
                SELECT coalesce((SELECT max(end_offset) FROM chunk WHERE document_id = ?), 0) AS end_offset,
                       coalesce((SELECT max(ordinal) + 1 FROM chunk WHERE document_id = ?), 0) AS next_chunk,
                       coalesce((SELECT max(ordinal) + 1 FROM page WHERE document_id = ?), 0) AS next_page""",
                (rs, n) -> new Segmenter.Continuation(
                        rs.getInt("end_offset"), rs.getInt("next_chunk"), rs.getInt("next_page")),
                documentId,
                documentId,
                documentId);
    }

    /**
     * Recomputes the counts derived from the chunks: the document's chunk, token and term counts and
     * its per-lexeme document frequencies (after the chunks, or what they are indexed with, changed).
     */
    public void refreshCounts(UUID documentId) {
        jdbc.update("""
                UPDATE document SET chunk_count = s.n, token_count = s.tokens, term_total = s.terms,
                       keyword_generation = keyword_generation + 1, updated_at = now()
                FROM (SELECT count(*) n, coalesce(sum(token_count), 0) tokens, coalesce(sum(term_count), 0) terms
                      FROM chunk WHERE document_id = ?) s
                WHERE id = ?""", documentId, documentId);
        // Recomputed whole rather than patched, so it can never drift from the chunks (see V6).
        jdbc.update("DELETE FROM document_lexeme WHERE document_id = ?", documentId);
        jdbc.update("""
                INSERT INTO document_lexeme (document_id, lexeme, df)
                SELECT c.document_id, u.lexeme, count(*) FROM chunk c CROSS JOIN LATERAL unnest(c.tsv) u
                WHERE c.document_id = ? GROUP BY c.document_id, u.lexeme""", documentId);
    }
}
