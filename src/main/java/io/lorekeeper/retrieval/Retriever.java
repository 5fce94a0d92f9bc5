package io.lorekeeper.retrieval;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

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

    Retriever(VectorSearch vectors, KeywordSearch keywords, Embeddings embeddings, JdbcClient jdbc, Documents documents) {
        this.vectors = vectors;
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
        };
    }

    public List<SearchHit> vector(List<UUID> documentIds, String query, int k) {
        return vectors.search(documentIds, embeddings.query(query), k);
    }

    public List<SearchHit> keyword(List<UUID> documentIds, String query, int k) {
        return keywords.search(documentIds, query, k);
    }

    /** Vector and keyword rankings, each three times deeper than k, fused by reciprocal rank. */
    public List<SearchHit> hybrid(List<UUID> documentIds, String query, int k) {
        int depth = Math.max(30, 3 * k);
        return RankFusion.fuse(List.of(vector(documentIds, query, depth), keyword(documentIds, query, depth)), k);
    }

    /** Zoom-out: the chunks within {@code window} ordinals of a chunk, in document order (the chunk included). */
    public List<SearchHit> neighbours(UUID documentId, int chunkOrdinal, int window) {
        return jdbc.sql("SELECT " + ChunkRows.COLUMNS + " FROM chunk c WHERE c.document_id = ? AND c.ordinal BETWEEN ? AND ? ORDER BY c.ordinal")
                .params(documentId, chunkOrdinal - window, chunkOrdinal + window)
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

    public int pageCount(UUID documentId) {
        return jdbc.sql("SELECT count(*) FROM page WHERE document_id = ?").param(documentId).query(Integer.class).single();
    }
}
