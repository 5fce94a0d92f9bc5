package io.lorekeeper.eval;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import io.lorekeeper.eval.EvalRunner.ItemResult;
import io.lorekeeper.platform.Transitions;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Evaluations as their readers see them, read from the {@link Evaluation} aggregates, and the
 * changes their job makes ({@link #change}); {@code evaluation_result}, each finished question of a
 * run, kept so that a revived or retried run resumes where it stopped, is plain SQL: append-only
 * rows written concurrently and read back in bulk.
 */
@Repository
class EvaluationStore {

    // Lenient: rows written by an older version may carry fields this one no longer knows.
    private static final JsonMapper JSON = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();
    private final JdbcClient jdbc;
    private final Evaluations evaluations;
    private final Transitions transitions;

    EvaluationStore(JdbcClient jdbc, Evaluations evaluations, Transitions transitions) {
        this.jdbc = jdbc;
        this.evaluations = evaluations;
        this.transitions = transitions;
    }

    record Stored(
            UUID id,
            UUID tenantId,
            String status,
            String dataset,
            JsonNode request,
            int done,
            int total,
            String error,
            JsonNode report,
            Instant createdAt,
            Instant startedAt,
            Instant finishedAt) {

        boolean finished() {
            return EvaluationStatus.valueOf(status).isFinished();
        }

        StartEvaluation startRequest() {
            return JSON.treeToValue(request, StartEvaluation.class);
        }
    }

    static JsonNode tree(Object value) {
        return JSON.valueToTree(value);
    }

    /**
     * Applies the job's transition in a transaction of its own, again on the fresh state when
     * another writer got there first.
     *
     * @throws io.lorekeeper.platform.IllegalTransitionException when the evaluation's state refuses it
     */
    Optional<Stored> change(UUID id, Consumer<Evaluation> transition) {
        return transitions.apply(evaluations, id, transition).map(EvaluationStore::stored);
    }

    /** Finished questions kept for the run, which a resumed run does not ask again. */
    int resultCount(UUID id) {
        return jdbc.sql("SELECT count(*) FROM evaluation_result WHERE evaluation_id = ?")
                .param(id)
                .query(Integer.class)
                .single();
    }

    /** Keeps one finished question; a second run of the same question (two replicas, briefly) keeps the first. */
    void saveResult(UUID id, ItemResult result) {
        jdbc.sql("""
                INSERT INTO evaluation_result (evaluation_id, item_id, strategy, result) VALUES (?, ?, ?, ?::jsonb)
                ON CONFLICT DO NOTHING""")
                .params(id, result.itemId(), result.strategy(), JSON.writeValueAsString(result))
                .update();
    }

    List<ItemResult> results(UUID id) {
        return jdbc.sql("SELECT result::text FROM evaluation_result WHERE evaluation_id = ?")
                .param(id)
                .query((rs, i) -> JSON.readValue(rs.getString(1), ItemResult.class))
                .list();
    }

    Optional<Stored> find(UUID tenant, UUID id) {
        return evaluations.findByIdAndTenantId(id, tenant).map(EvaluationStore::stored);
    }

    /** For the job, which runs outside any request and so for no current tenant. */
    Optional<Stored> find(UUID id) {
        return evaluations.findById(id).map(EvaluationStore::stored);
    }

    private static Stored stored(Evaluation e) {
        return new Stored(
                e.id(),
                e.tenantId(),
                e.status().name(),
                e.dataset(),
                e.request(),
                e.done(),
                e.total(),
                e.error(),
                e.report(),
                e.createdAt(),
                e.startedAt(),
                e.finishedAt());
    }
}
