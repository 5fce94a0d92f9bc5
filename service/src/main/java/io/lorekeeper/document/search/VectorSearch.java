package io.lorekeeper.document.search;

import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.PreparedStatementCallback;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import com.pgvector.PGvector;

import io.lorekeeper.document.VectorText;
import io.lorekeeper.platform.SearchDatabase;

/**
 * Nearest chunks by cosine distance through the HNSW index. Filtering by document happens during
 * the index scan with pgvector's iterative scan, so a small document inside a large corpus still
 * gets its k hits; relaxed ordering is restored by sorting the (few) results here.
 */
@Component
class VectorSearch {

    private final JdbcClient jdbc;
    private final JdbcTemplate template;

    /** On the search database (a read replica when one is configured). */
    VectorSearch(SearchDatabase database) {
        this.jdbc = database.jdbc();
        this.template = database.template();
    }

    /** The stored vectors of the given chunks (those never embedded are left out). */
    List<float[]> vectorsOf(List<SearchHit.ChunkKey> chunks) {
        if (chunks.isEmpty()) {
            return List.of();
        }
        return jdbc.sql("""
                        SELECT c.embedding FROM chunk c
                        JOIN unnest(CAST(? AS uuid[]), CAST(? AS int[])) AS k(document_id, ordinal)
                          ON c.document_id = k.document_id AND c.ordinal = k.ordinal
                        WHERE c.embedding IS NOT NULL""")
                .params(
                        chunks.stream().map(SearchHit.ChunkKey::documentId).toArray(UUID[]::new),
                        chunks.stream().map(SearchHit.ChunkKey::ordinal).toArray(Integer[]::new))
                .query((rs, n) -> VectorText.parse(rs.getString(1)))
                .list();
    }

    List<SearchHit> search(List<UUID> documentIds, float[] query, int k) {
        PGvector vector = new PGvector(query);
        // The scan's settings and the scan in one statement, so one round trip: PostgreSQL runs the
        // statements of one message in one implicit transaction, which set_config(..., true) is local
        // to (inside a caller's transaction, to that one). Before, a transaction of its own cost three
        // round trips and about 7% of the CPU of hybrid search at 32 clients.
        return template.execute(
                "SELECT set_config('hnsw.ef_search', ?, true), set_config('hnsw.iterative_scan', 'relaxed_order', true); "
                        + "SELECT " + ChunkRows.COLUMNS + ", c.embedding <=> ? AS distance FROM chunk c "
                        + "WHERE c.document_id = ANY(?) AND c.embedding IS NOT NULL "
                        + "ORDER BY c.embedding <=> ? LIMIT ?",
                (PreparedStatementCallback<List<SearchHit>>) statement -> {
                    statement.setString(1, String.valueOf(Math.max(40, 2 * k)));
                    statement.setObject(2, vector);
                    statement.setObject(3, documentIds.toArray(UUID[]::new));
                    statement.setObject(4, vector);
                    statement.setInt(5, k);
                    statement.execute();
                    if (!statement.getMoreResults()) {
                        throw new IllegalStateException("the vector search returned no rows");
                    }
                    List<SearchHit> hits = new ArrayList<>();
                    try (ResultSet rows = statement.getResultSet()) {
                        while (rows.next()) {
                            hits.add(ChunkRows.hit(rows, 1.0 - rows.getDouble("distance")));
                        }
                    }
                    // relaxed order: the iterative scan may return a few out of order
                    hits.sort(Comparator.comparingDouble(SearchHit::score).reversed());
                    return hits;
                });
    }
}
