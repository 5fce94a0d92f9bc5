package io.lorekeeper.memory;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import com.pgvector.PGvector;

import io.lorekeeper.document.IngestionStage;
import io.lorekeeper.document.StageRun;

/**
 * Embeds every chunk of a document, one batch per checkpoint: each batch is written before the
 * next is computed, so a job killed half-way only redoes the batch it was in. A chunk that has a
 * context (its page's header, once the page-headers stage wrote it) is embedded with it in front.
 */
@Component
class EmbedStage implements IngestionStage {

    private final JdbcClient jdbc;
    private final JdbcTemplate jdbcTemplate;
    private final Embeddings embeddings;
    private final EmbeddingSettings settings;

    EmbedStage(JdbcClient jdbc, JdbcTemplate jdbcTemplate, Embeddings embeddings, EmbeddingSettings settings) {
        this.jdbc = jdbc;
        this.jdbcTemplate = jdbcTemplate;
        this.embeddings = embeddings;
        this.settings = settings;
    }

    @Override
    public String name() {
        return "embed";
    }

    @Override
    public int position() {
        return 20;
    }

    private record Pending(long id, String text) {
    }

    @Override
    public void run(StageRun run) {
        UUID documentId = run.document().id();
        int total = jdbc.sql("SELECT count(*) FROM chunk WHERE document_id = ?").param(documentId).query(Integer.class).single();
        int done = jdbc.sql("SELECT count(*) FROM chunk WHERE document_id = ? AND embedding IS NOT NULL")
                .param(documentId).query(Integer.class).single();
        run.progress(done, total);
        while (true) {
            List<Pending> batch = jdbc.sql("""
                    SELECT id, text, context FROM chunk WHERE document_id = ? AND embedding IS NULL ORDER BY ordinal LIMIT ?""")
                    .params(documentId, settings.batchSize())
                    .query((rs, n) -> new Pending(rs.getLong("id"), withContext(rs.getString("context"), rs.getString("text")))).list();
            if (batch.isEmpty()) {
                return;
            }
            List<float[]> vectors = embeddings.passages(batch.stream().map(Pending::text).toList());
            List<Object[]> rows = new ArrayList<>(batch.size());
            for (int i = 0; i < batch.size(); i++) {
                rows.add(new Object[] {new PGvector(vectors.get(i)), batch.get(i).id()});
            }
            jdbcTemplate.batchUpdate("UPDATE chunk SET embedding = ? WHERE id = ?", rows);
            done += batch.size();
            run.progress(done, total);
        }
    }

    /** What a chunk is embedded as: its context (its page's header) on a line before its text, when it has one. */
    static String withContext(String context, String text) {
        return context == null || context.isBlank() ? text : context + "\n" + text;
    }

    @Override
    public void reset(UUID documentId) {
        jdbc.sql("UPDATE chunk SET embedding = NULL WHERE document_id = ?").param(documentId).update();
    }
}
