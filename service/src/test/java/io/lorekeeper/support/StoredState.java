package io.lorekeeper.support;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * What requests could have written, as a row count and a checksum per table: a sweep of refused
 * requests compares it before and after to show that none of them stored anything.
 */
public final class StoredState {

    /** The tables a request could write to; scheduled_tasks is left out, its heartbeats move on their own. */
    public static final List<String> TABLES = List.of(
            "document",
            "document_text",
            "conversation_session",
            "conversation_turn",
            "ingestion_stage",
            "chunk",
            "page",
            "document_lexeme",
            "memo",
            "question",
            "trace_event",
            "llm_call",
            "evaluation",
            "evaluation_result",
            "graph",
            "graph_node",
            "graph_edge");

    private final JdbcClient jdbc;
    private final String who;

    /** @param who the test, named in what waiting for quiet prints */
    public StoredState(JdbcClient jdbc, String who) {
        this.jdbc = jdbc;
        this.who = who;
    }

    /** Every table in {@link #TABLES}. */
    public Map<String, String> snapshot() {
        return snapshot(TABLES);
    }

    public Map<String, String> snapshot(List<String> tables) {
        Map<String, String> state = new LinkedHashMap<>();
        for (String table : tables) {
            state.put(
                    table,
                    jdbc.sql(
                                    "SELECT count(*) || ' rows, checksum ' || coalesce(sum(hashtextextended(t::text, 0)), 0) FROM "
                                            + table + " t")
                            .query(String.class)
                            .single());
        }
        return state;
    }

    /** The tables whose state differs, each with both states; empty when none does. */
    public static String changed(Map<String, String> before, Map<String, String> after) {
        List<String> tables = new ArrayList<>();
        before.forEach((table, state) -> {
            if (!state.equals(after.get(table))) {
                tables.add(table + " (" + state + " -> " + after.get(table) + ")");
            }
        });
        return String.join(", ", tables);
    }

    /**
     * Waits until no job of any earlier test is still writing, so that a change can only come from
     * the sweep: nothing queued or running and what is stored unchanged between two looks. Work left
     * queued that never moves (an earlier test's question waiting on something) cannot be waited out;
     * after three minutes, ten seconds without a change is taken as quiet.
     */
    public void awaitQuiet() throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        Map<String, String> last = null;
        long unchangedSince = System.nanoTime();
        while (true) {
            // Only work with a job can still write: rows a test made without one (repository and module
            // tests) stay QUEUED for ever and are not waited for.
            long busy = jdbc.sql("""
                    WITH jobs AS (SELECT task_instance FROM scheduled_tasks)
                    SELECT (SELECT count(*) FROM document WHERE status IN ('QUEUED', 'INGESTING') AND id::text IN (SELECT * FROM jobs))
                         + (SELECT count(*) FROM question WHERE status IN ('QUEUED', 'RUNNING') AND id::text IN (SELECT * FROM jobs))
                         + (SELECT count(*) FROM evaluation WHERE status IN ('QUEUED', 'RUNNING') AND id::text IN (SELECT * FROM jobs))""").query(Long.class).single();
            Map<String, String> now = snapshot();
            if (!now.equals(last)) {
                unchangedSince = System.nanoTime();
            } else if (busy == 0) {
                return;
            } else if (System.nanoTime() > deadline
                    && System.nanoTime() - unchangedSince
                            > Duration.ofSeconds(10).toNanos()) {
                System.out.println(
                        "[" + who + "] " + busy + " jobs of earlier tests are queued or running but not moving");
                return;
            }
            if (System.nanoTime() > deadline + Duration.ofMinutes(1).toNanos()) {
                throw new AssertionError("the database did not settle before the sweep");
            }
            last = now;
            Thread.sleep(500);
        }
    }
}
