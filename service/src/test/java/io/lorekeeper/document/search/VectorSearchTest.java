package io.lorekeeper.document.search;

import static io.lorekeeper.support.TestDocuments.aText;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.lorekeeper.support.Api;
import io.lorekeeper.support.IntegrationTest;

/**
 * A small document among many stored vectors still gets its k nearest chunks: the HNSW scan filters
 * by document while it walks the graph (pgvector's iterative scan, set in the same statement as the
 * search). Without it the scan stops after {@code ef_search} candidates, nearly all of them other
 * documents', and the small document gets few hits or none.
 */
@IntegrationTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class VectorSearchTest {

    private static final int CROWD = 3000;

    @Autowired
    Api api;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    VectorSearch vectors;

    UUID small;
    UUID crowd;

    @BeforeAll
    void storeASmallDocumentInACrowd() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 14; i++) {
            text.append("Entry ")
                    .append(i)
                    .append(". The keeper logged the tide, the wind and the ships at anchor.\n\n");
        }
        small = api.ingest(
                aText(text.toString()).titled("Small log " + UUID.randomUUID()).build());
        crowd = api.ingest(aText("The crowd of vectors.")
                .titled("Crowd " + UUID.randomUUID())
                .build());
        // thousands of random vectors in another document, nearer to a random query than the log's
        jdbc.sql("""
                        INSERT INTO chunk (document_id, ordinal, page_ordinal, start_offset, end_offset, text, token_count, embedding)
                        SELECT ?, 1000 + g, 0, 0, 1, 'c', 1,
                               CAST((SELECT array_agg(random() - 0.5) FROM generate_series(1, 384) WHERE g > 0) AS vector)
                        FROM generate_series(1, ?) g""").params(crowd, CROWD).update();
    }

    @AfterAll
    void removeTheCrowd() {
        jdbc.sql("DELETE FROM chunk WHERE document_id = ? AND ordinal >= 1000")
                .param(crowd)
                .update();
    }

    @Test
    void aSmallDocumentAmongThousandsOfVectorsGetsItsKNearest() {
        int chunks = jdbc.sql("SELECT count(*) FROM chunk WHERE document_id = ? AND embedding IS NOT NULL")
                .param(small)
                .query(Integer.class)
                .single();
        int k = Math.min(10, chunks);
        Random random = new Random(3);
        for (int q = 0; q < 5; q++) {
            float[] query = new float[384];
            for (int i = 0; i < query.length; i++) {
                query[i] = random.nextFloat() - 0.5f;
            }

            List<SearchHit> hits = vectors.search(List.of(small), query, k);

            assertThat(hits)
                    .hasSize(k)
                    .allSatisfy(hit -> assertThat(hit.documentId()).isEqualTo(small));
            assertThat(hits).extracting(SearchHit::score).isSortedAccordingTo((a, b) -> Double.compare(b, a));
        }
        // both documents together: the crowd's random vectors come first
        float[] query = new float[384];
        query[0] = 1;
        assertThat(vectors.search(List.of(small, crowd), query, 5)).hasSize(5);
    }
}
