package io.lorekeeper.memory;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import io.lorekeeper.text.Span;

/**
 * The {@code sentences} memory: a stored vector per sentence span of a document, so that a question
 * scoring sentences reads their vectors instead of embedding them. Vectors are kept as float16
 * (half the bytes of float32; the cosine of two such vectors differs from the float32 one in the
 * fourth decimal), keyed by the sentence's span in the canonical text.
 */
@Repository
public class SentenceVectors {

    private final JdbcClient jdbc;
    private final JdbcTemplate batch;

    SentenceVectors(JdbcClient jdbc, JdbcTemplate batch) {
        this.jdbc = jdbc;
        this.batch = batch;
    }

    /** The stored vectors of those spans of the document that have one. */
    public Map<Span, float[]> stored(UUID documentId, Collection<Span> spans) {
        if (spans.isEmpty()) {
            return Map.of();
        }
        Integer[] starts = spans.stream().map(Span::start).distinct().toArray(Integer[]::new);
        Map<Span, float[]> found = new HashMap<>();
        jdbc.sql("""
                        SELECT start_offset, end_offset, embedding FROM sentence_vector
                        WHERE document_id = ? AND start_offset = ANY(?)""").params(documentId, starts).query(rs -> {
            Span span = new Span(rs.getInt(1), rs.getInt(2));
            if (spans.contains(span)) {
                found.put(span, decode(rs.getBytes(3)));
            }
        });
        return found;
    }

    /** The ordinal of the last chunk whose sentences were stored, from which a stopped stage resumes; -1 if none. */
    int lastChunk(UUID documentId) {
        return jdbc.sql("SELECT coalesce(max(chunk_ordinal), -1) FROM sentence_vector WHERE document_id = ?")
                .param(documentId)
                .query(Integer.class)
                .single();
    }

    record Sentence(int chunkOrdinal, Span span, float[] vector) {}

    void store(UUID documentId, List<Sentence> sentences) {
        batch.batchUpdate("""
                INSERT INTO sentence_vector (document_id, start_offset, end_offset, chunk_ordinal, embedding)
                VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING""", sentences, 500, (ps, s) -> {
            ps.setObject(1, documentId);
            ps.setInt(2, s.span().start());
            ps.setInt(3, s.span().end());
            ps.setInt(4, s.chunkOrdinal());
            ps.setBytes(5, encode(s.vector()));
        });
    }

    void clear(UUID documentId) {
        jdbc.sql("DELETE FROM sentence_vector WHERE document_id = ?")
                .param(documentId)
                .update();
    }

    static byte[] encode(float[] vector) {
        ByteBuffer out = ByteBuffer.allocate(2 * vector.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float v : vector) {
            out.putShort(Float.floatToFloat16(v));
        }
        return out.array();
    }

    static float[] decode(byte[] bytes) {
        ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        float[] vector = new float[bytes.length / 2];
        for (int i = 0; i < vector.length; i++) {
            vector[i] = Float.float16ToFloat(in.getShort());
        }
        return vector;
    }
}
