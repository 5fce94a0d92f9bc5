package io.lorekeeper.document;

import java.util.Comparator;
import java.util.List;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import com.pgvector.PGvector;

import io.lorekeeper.platform.SearchDatabase;

/**
 * Nearest chunks by cosine distance through the HNSW index. Filtering by document happens during
 * the index scan with pgvector's iterative scan, so a small document inside a large corpus still
 * gets its k hits; relaxed ordering is restored by sorting the (few) results here.
 */
@Component
class VectorSearch {

    private final JdbcClient jdbc;
    private final TransactionTemplate transaction;

    /** On the search database (a read replica when one is configured). */
    VectorSearch(SearchDatabase database) {
        this.jdbc = database.jdbc();
        this.transaction = database.transaction();
    }

    /** The stored vectors of the given chunks (those never embedded are left out). */
    List<float[]> vectorsOf(List<ChunkHit.Key> chunks) {
        if (chunks.isEmpty()) {
            return List.of();
        }
        return jdbc.sql("""
                        SELECT c.embedding FROM chunk c
                        JOIN unnest(CAST(? AS uuid[]), CAST(? AS int[])) AS k(document_id, ordinal)
                          ON c.document_id = k.document_id AND c.ordinal = k.ordinal
                        WHERE c.embedding IS NOT NULL""")
                .params(
                        chunks.stream().map(ChunkHit.Key::documentId).toArray(UUID[]::new),
                        chunks.stream().map(ChunkHit.Key::ordinal).toArray(Integer[]::new))
                .query((rs, n) -> VectorText.parse(rs.getString(1)))
                .list();
    }

    List<ChunkHit> search(List<UUID> documentIds, float[] query, int k) {
        PGvector vector = new PGvector(query);
        return transaction.execute(status -> {
            jdbc.sql(
                            "SELECT set_config('hnsw.ef_search', ?, true), set_config('hnsw.iterative_scan', 'relaxed_order', true)")
                    .param(String.valueOf(Math.max(40, 2 * k)))
                    .query((rs, n) -> null)
                    .list();
            return jdbc
                    .sql("SELECT " + ChunkRows.COLUMNS + ", c.embedding <=> ? AS distance FROM chunk c "
                            + "WHERE c.document_id = ANY(?) AND c.embedding IS NOT NULL "
                            + "ORDER BY c.embedding <=> ? LIMIT ?")
                    .params(vector, documentIds.toArray(UUID[]::new), vector, k)
                    .query((rs, n) -> ChunkRows.hit(rs, 1.0 - rs.getDouble("distance")))
                    .list()
                    .stream()
                    .sorted(Comparator.comparingDouble(ChunkHit::score).reversed())
                    .toList();
        });
    }
}
