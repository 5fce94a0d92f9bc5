package io.lorekeeper.memory;

import java.util.List;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import com.pgvector.PGvector;

import io.lorekeeper.text.Span;

/** SQL of the GAM memorizer: the pages it reads, the memos it writes, the headers it sets. */
@Repository
class MemorizerStore {

    private final JdbcClient jdbc;

    MemorizerStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    record Page(int ordinal, Span span, boolean hasHeader) {
    }

    record Memo(int pageOrdinal, String text) {
    }

    List<Page> pages(UUID documentId) {
        return jdbc.sql("SELECT ordinal, start_offset, end_offset, header IS NOT NULL AS has_header FROM page WHERE document_id = ? ORDER BY ordinal")
                .param(documentId)
                .query((rs, n) -> new Page(rs.getInt("ordinal"), new Span(rs.getInt("start_offset"), rs.getInt("end_offset")),
                        rs.getBoolean("has_header")))
                .list();
    }

    List<Memo> memos(UUID documentId) {
        return jdbc.sql("SELECT page_ordinal, text FROM memo WHERE document_id = ? ORDER BY page_ordinal").param(documentId)
                .query((rs, n) -> new Memo(rs.getInt("page_ordinal"), rs.getString("text")))
                .list();
    }

    /** A second writer of the same memo (a revived job racing a slow one) leaves the first in place. */
    void insertMemo(UUID documentId, Page page, String text, float[] embedding) {
        jdbc.sql("""
                INSERT INTO memo (document_id, page_ordinal, start_offset, end_offset, text, embedding)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (document_id, page_ordinal) DO NOTHING""")
                .params(documentId, page.ordinal(), page.span().start(), page.span().end(), text, new PGvector(embedding))
                .update();
    }

    void deleteMemos(UUID documentId) {
        jdbc.sql("DELETE FROM memo WHERE document_id = ?").param(documentId).update();
    }

    void setHeader(UUID documentId, int pageOrdinal, String header) {
        jdbc.sql("UPDATE page SET header = ? WHERE document_id = ? AND ordinal = ?").params(header, documentId, pageOrdinal).update();
    }

    void clearHeaders(UUID documentId) {
        jdbc.sql("UPDATE page SET header = NULL WHERE document_id = ?").param(documentId).update();
        jdbc.sql("UPDATE chunk SET context = NULL WHERE document_id = ? AND context IS NOT NULL").param(documentId).update();
    }

    record ChunkText(long id, String text) {
    }

    List<ChunkText> chunksOfPage(UUID documentId, int pageOrdinal) {
        return jdbc.sql("SELECT id, text FROM chunk WHERE document_id = ? AND page_ordinal = ? ORDER BY ordinal")
                .params(documentId, pageOrdinal).query((rs, n) -> new ChunkText(rs.getLong("id"), rs.getString("text"))).list();
    }

    /** Indexes a chunk with its page's header: the keyword index follows the context column, the vector is given. */
    void setChunkContext(long chunkId, String context, float[] embedding) {
        jdbc.sql("UPDATE chunk SET context = ?, embedding = ? WHERE id = ?").params(context, new PGvector(embedding), chunkId).update();
    }
}
