package io.lorekeeper.comorag;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import com.pgvector.PGvector;

import io.lorekeeper.document.ChunkEmbeddings;
import io.lorekeeper.memory.VectorSet;

/**
 * ComoRAG's vectors for an embedding change: units again as the mean of their chunks' new vectors
 * (which the chunks' set fills first), facts and summaries embedded again from their text. The entity
 * graph's synonym edges were drawn from the old model's name vectors, so the graphs are dropped at the
 * switch and each is built again at its document's next graph question, as for a document indexed
 * before graphs existed (no model call).
 */
@Component
class ComoRagVectors implements VectorSet {

    private final JdbcClient jdbc;
    private final JdbcTemplate batch;
    private final ChunkEmbeddings chunks;

    ComoRagVectors(JdbcClient jdbc, JdbcTemplate batch, ChunkEmbeddings chunks) {
        this.jdbc = jdbc;
        this.batch = batch;
        this.chunks = chunks;
    }

    @Override
    public List<String> tables() {
        return List.of("comorag_unit", "comorag_triple", "comorag_summary");
    }

    @Override
    public List<String> dropped() {
        return List.of("comorag_entity");
    }

    @Override
    public int order() {
        return 50;
    }

    private record Unit(int ordinal, int firstChunk, int lastChunk) {}

    private record Text(long id, String text) {}

    @Override
    public void fill(UUID documentId, Function<List<String>, List<float[]>> embed) {
        for (Unit unit : jdbc.sql("""
                        SELECT ordinal, first_chunk, last_chunk FROM comorag_unit
                        WHERE document_id = ? AND embedding_next IS NULL ORDER BY ordinal""")
                .param(documentId)
                .query((rs, n) -> new Unit(rs.getInt(1), rs.getInt(2), rs.getInt(3)))
                .list()) {
            chunks.meanNext(documentId, unit.firstChunk(), unit.lastChunk())
                    .ifPresent(mean -> jdbc.sql(
                                    "UPDATE comorag_unit SET embedding_next = ? WHERE document_id = ? AND ordinal = ?")
                            .params(new PGvector(mean), documentId, unit.ordinal())
                            .update());
        }
        embedAgain(
                "comorag_triple",
                jdbc.sql("""
                                SELECT id, subject || ' ' || predicate || ' ' || object FROM comorag_triple
                                WHERE document_id = ? AND embedding_next IS NULL""")
                        .param(documentId)
                        .query((rs, n) -> new Text(rs.getLong(1), rs.getString(2)))
                        .list(),
                embed);
        embedAgain(
                "comorag_summary",
                jdbc.sql("SELECT id, text FROM comorag_summary WHERE document_id = ? AND embedding_next IS NULL")
                        .param(documentId)
                        .query((rs, n) -> new Text(rs.getLong(1), rs.getString(2)))
                        .list(),
                embed);
    }

    private void embedAgain(String table, List<Text> texts, Function<List<String>, List<float[]>> embed) {
        if (texts.isEmpty()) {
            return;
        }
        List<float[]> vectors = embed.apply(texts.stream().map(Text::text).toList());
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            rows.add(new Object[] {new PGvector(vectors.get(i)), texts.get(i).id()});
        }
        // table names are this class's constants, never input
        batch.batchUpdate("UPDATE " + table + " SET embedding_next = ? WHERE id = ?", rows);
    }

    @Override
    public void beforeSwap() {
        jdbc.sql("DELETE FROM comorag_graph").update();
    }
}
