package io.lorekeeper.document.ingestion;

import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import io.lorekeeper.document.lifecycle.Document;
import io.lorekeeper.document.stage.StageRun;

/**
 * A running stage's progress and gaps on its {@code ingestion_stage} row: bulk UPDATEs beside the
 * {@link Document} aggregate, not changes of it. They come many times a second, from stages that run
 * (often on parallel workers) while other changes are made to the same document (an append, a reindex
 * of an enrichment, another stage's outcome); as versioned changes each would make those conflict and
 * retry for nothing.
 */
@Repository
public class StageProgress {

    /** How many gaps a stage names in its view; the count goes on beyond them. */
    static final int LISTED_FAILURES = 10;

    private final JdbcClient jdbc;

    StageProgress(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Records a running stage's progress. It writes only done and total, which no transition reads,
     * and the stage entity's dynamic update never writes them back except when a rebuild zeroes them.
     */
    public void progress(UUID documentId, String stage, int done, int total) {
        jdbc.sql(
                        "UPDATE ingestion_stage SET done = ?, total = ?, updated_at = now() WHERE document_id = ? AND stage = ?")
                .params(done, total, documentId, stage)
                .update();
    }

    /**
     * Records one item a running stage left without output (see {@link StageRun#itemFailed}). Only the
     * run of {@code generation} records: a run overtaken by a reset writes nothing over the newer request.
     */
    void itemFailed(UUID documentId, String stage, int generation, String failure) {
        jdbc.sql("""
                UPDATE ingestion_stage
                SET failed = failed + 1,
                    failures = CASE WHEN cardinality(failures) < ? THEN failures || ?::text ELSE failures END,
                    updated_at = now()
                WHERE document_id = ? AND stage = ? AND generation = ?""")
                .params(LISTED_FAILURES, failure, documentId, stage, generation)
                .update();
    }

    /** A run of the stage begins: the gaps it will try again are no longer counted until it leaves them again. */
    void clearItemFailures(UUID documentId, String stage, int generation) {
        jdbc.sql("""
                UPDATE ingestion_stage SET failed = 0, failures = '{}'
                WHERE document_id = ? AND stage = ? AND generation = ? AND (failed <> 0 OR cardinality(failures) <> 0)""").params(documentId, stage, generation).update();
    }
}
