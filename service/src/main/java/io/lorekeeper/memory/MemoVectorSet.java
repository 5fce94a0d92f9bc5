package io.lorekeeper.memory;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import com.pgvector.PGvector;

/** GAM's memos, each embedded again from its text as the memorizer embedded it. */
@Component
class MemoVectorSet implements VectorSet {

    private final JdbcClient jdbc;
    private final JdbcTemplate batch;

    MemoVectorSet(JdbcClient jdbc, JdbcTemplate batch) {
        this.jdbc = jdbc;
        this.batch = batch;
    }

    @Override
    public List<String> tables() {
        return List.of("memo");
    }

    @Override
    public int order() {
        return 20;
    }

    private record Memo(int page, String text) {}

    @Override
    public void fill(UUID documentId, Function<List<String>, List<float[]>> embed) {
        List<Memo> memos = jdbc.sql("""
                        SELECT page_ordinal, text FROM memo
                        WHERE document_id = ? AND embedding IS NOT NULL AND embedding_next IS NULL""")
                .param(documentId)
                .query((rs, n) -> new Memo(rs.getInt(1), rs.getString(2)))
                .list();
        if (memos.isEmpty()) {
            return;
        }
        List<float[]> vectors = embed.apply(memos.stream().map(Memo::text).toList());
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < memos.size(); i++) {
            rows.add(new Object[] {
                new PGvector(vectors.get(i)), documentId, memos.get(i).page()
            });
        }
        batch.batchUpdate("UPDATE memo SET embedding_next = ? WHERE document_id = ? AND page_ordinal = ?", rows);
    }
}
