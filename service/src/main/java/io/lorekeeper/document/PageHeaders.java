package io.lorekeeper.document;

import java.util.List;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import com.pgvector.PGvector;

import io.lorekeeper.text.Span;

/**
 * The headers the memorizer writes onto this module's pages, and the context each chunk of a page
 * is indexed with (its page's header): the memorizer decides what they say, the rows are this
 * module's.
 */
@Component
public class PageHeaders {

    /** A page's span and whether it has a header yet. */
    public record PageSpan(int ordinal, Span span, boolean hasHeader) {}

    /** One chunk of a page: its row id and text. */
    public record ChunkText(long id, String text) {}

    private final JdbcClient jdbc;

    PageHeaders(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    public List<PageSpan> pages(UUID documentId) {
        return jdbc.sql(
                        "SELECT ordinal, start_offset, end_offset, header IS NOT NULL AS has_header FROM page WHERE document_id = ? ORDER BY ordinal")
                .param(documentId)
                .query((rs, n) -> new PageSpan(
                        rs.getInt("ordinal"),
                        new Span(rs.getInt("start_offset"), rs.getInt("end_offset")),
                        rs.getBoolean("has_header")))
                .list();
    }

    public void setHeader(UUID documentId, int pageOrdinal, String header) {
        jdbc.sql("UPDATE page SET header = ? WHERE document_id = ? AND ordinal = ?")
                .params(header, documentId, pageOrdinal)
                .update();
    }

    /** Forgets every header of the document and the chunk contexts taken from them. */
    public void clear(UUID documentId) {
        jdbc.sql("UPDATE page SET header = NULL WHERE document_id = ?")
                .param(documentId)
                .update();
        jdbc.sql("UPDATE chunk SET context = NULL WHERE document_id = ? AND context IS NOT NULL")
                .param(documentId)
                .update();
    }

    public List<ChunkText> chunksOfPage(UUID documentId, int pageOrdinal) {
        return jdbc.sql("SELECT id, text FROM chunk WHERE document_id = ? AND page_ordinal = ? ORDER BY ordinal")
                .params(documentId, pageOrdinal)
                .query((rs, n) -> new ChunkText(rs.getLong("id"), rs.getString("text")))
                .list();
    }

    /** Indexes a chunk with its page's header: the keyword index follows the context column, the vector is given. */
    public void setChunkContext(long chunkId, String context, float[] embedding) {
        jdbc.sql("UPDATE chunk SET context = ?, embedding = ? WHERE id = ?")
                .params(context, new PGvector(embedding), chunkId)
                .update();
    }
}
