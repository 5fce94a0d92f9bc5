package io.lorekeeper.memory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import io.lorekeeper.document.ChunkEmbeddings;

/** The sentences memory: each stored sentence embedded again from its span of its chunk. */
@Component
class SentenceVectorSet implements VectorSet {

    /** Chunks whose sentences are embedded and written per step. */
    private static final int CHUNKS_PER_STEP = 32;

    private final JdbcClient jdbc;
    private final JdbcTemplate batch;
    private final ChunkEmbeddings chunks;

    SentenceVectorSet(JdbcClient jdbc, JdbcTemplate batch, ChunkEmbeddings chunks) {
        this.jdbc = jdbc;
        this.batch = batch;
        this.chunks = chunks;
    }

    @Override
    public List<String> tables() {
        return List.of("sentence_vector");
    }

    @Override
    public int order() {
        return 30;
    }

    private record Sentence(int chunk, int start, int end) {}

    @Override
    public void fill(UUID documentId, Function<List<String>, List<float[]>> embed) {
        while (true) {
            List<Sentence> sentences = jdbc.sql("""
                            SELECT chunk_ordinal, start_offset, end_offset FROM sentence_vector
                            WHERE document_id = ? AND embedding_next IS NULL AND chunk_ordinal IN (
                                SELECT DISTINCT chunk_ordinal FROM sentence_vector
                                WHERE document_id = ? AND embedding_next IS NULL
                                ORDER BY chunk_ordinal LIMIT ?)""")
                    .params(documentId, documentId, CHUNKS_PER_STEP)
                    .query((rs, n) -> new Sentence(rs.getInt(1), rs.getInt(2), rs.getInt(3)))
                    .list();
            if (sentences.isEmpty()) {
                return;
            }
            int first = sentences.stream().mapToInt(Sentence::chunk).min().orElseThrow();
            int last = sentences.stream().mapToInt(Sentence::chunk).max().orElseThrow();
            Map<Integer, ChunkEmbeddings.ChunkText> texts =
                    chunks.chunkTexts(documentId, first, last - first + 1).stream()
                            .collect(Collectors.toMap(ChunkEmbeddings.ChunkText::ordinal, c -> c));
            List<Sentence> found = new ArrayList<>();
            List<String> words = new ArrayList<>();
            List<Object[]> gone = new ArrayList<>();
            for (Sentence s : sentences) {
                ChunkEmbeddings.ChunkText chunk = texts.get(s.chunk());
                int from = s.start() - (chunk == null ? 0 : chunk.start());
                int to = s.end() - (chunk == null ? 0 : chunk.start());
                if (chunk == null || from < 0 || to > chunk.text().length() || from >= to) {
                    // a sentence of a chunk segmented anew since: the sentences stage stores it again
                    gone.add(new Object[] {documentId, s.start(), s.end()});
                    continue;
                }
                found.add(s);
                words.add(chunk.text().substring(from, to));
            }
            List<float[]> vectors = embed.apply(words);
            List<Object[]> rows = new ArrayList<>();
            for (int i = 0; i < found.size(); i++) {
                rows.add(new Object[] {
                    SentenceVectors.encode(vectors.get(i)),
                    documentId,
                    found.get(i).start(),
                    found.get(i).end()
                });
            }
            batch.batchUpdate(
                    "UPDATE sentence_vector SET embedding_next = ? WHERE document_id = ? AND start_offset = ? AND end_offset = ?",
                    rows);
            batch.batchUpdate(
                    "DELETE FROM sentence_vector WHERE document_id = ? AND start_offset = ? AND end_offset = ?", gone);
        }
    }
}
