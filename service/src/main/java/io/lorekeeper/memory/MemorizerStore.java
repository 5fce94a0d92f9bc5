package io.lorekeeper.memory;

import java.util.List;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import com.pgvector.PGvector;

import io.lorekeeper.document.PageHeaders;
import io.lorekeeper.text.Span;

/**
 * Storage of the GAM memorizer: the memos it writes (this module's table, SQL here), and the pages
 * it reads and the headers it sets (the document module's rows, through {@link PageHeaders}).
 */
@Repository
class MemorizerStore {

    private final JdbcClient jdbc;
    private final PageHeaders pageHeaders;

    MemorizerStore(JdbcClient jdbc, PageHeaders pageHeaders) {
        this.jdbc = jdbc;
        this.pageHeaders = pageHeaders;
    }

    record Page(int ordinal, Span span, boolean hasHeader) {}

    record Memo(int pageOrdinal, String text) {}

    List<Page> pages(UUID documentId) {
        return pageHeaders.pages(documentId).stream()
                .map(p -> new Page(p.ordinal(), p.span(), p.hasHeader()))
                .toList();
    }

    List<Memo> memos(UUID documentId) {
        return jdbc.sql("SELECT page_ordinal, text FROM memo WHERE document_id = ? ORDER BY page_ordinal")
                .param(documentId)
                .query((rs, n) -> new Memo(rs.getInt("page_ordinal"), rs.getString("text")))
                .list();
    }

    /** A second writer of the same memo (a revived job racing a slow one) leaves the first in place. */
    void insertMemo(UUID documentId, Page page, String text, float[] embedding) {
        jdbc.sql("""
                INSERT INTO memo (document_id, page_ordinal, start_offset, end_offset, text, embedding)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (document_id, page_ordinal) DO NOTHING""")
                .params(
                        documentId,
                        page.ordinal(),
                        page.span().start(),
                        page.span().end(),
                        text,
                        new PGvector(embedding))
                .update();
    }

    void deleteMemos(UUID documentId) {
        jdbc.sql("DELETE FROM memo WHERE document_id = ?").param(documentId).update();
    }

    void setHeader(UUID documentId, int pageOrdinal, String header) {
        pageHeaders.setHeader(documentId, pageOrdinal, header);
    }

    void clearHeaders(UUID documentId) {
        pageHeaders.clear(documentId);
    }

    record ChunkText(long id, String text) {}

    List<ChunkText> chunksOfPage(UUID documentId, int pageOrdinal) {
        return pageHeaders.chunksOfPage(documentId, pageOrdinal).stream()
                .map(c -> new ChunkText(c.id(), c.text()))
                .toList();
    }

    /** Indexes a chunk with its page's header: the keyword index follows the context column, the vector is given. */
    void setChunkContext(long chunkId, String context, float[] embedding) {
        pageHeaders.setChunkContext(chunkId, context, embedding);
    }
}
