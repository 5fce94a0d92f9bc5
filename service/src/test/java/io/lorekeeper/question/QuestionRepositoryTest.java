package io.lorekeeper.question;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

import io.lorekeeper.security.CurrentTenant;
import io.lorekeeper.strategy.Citation;
import io.lorekeeper.strategy.StrategyResult;
import io.lorekeeper.support.RepositoryTest;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@link Question} mapping against the real {@code question} table (Flyway's schema, which
 * Hibernate does not validate at start-up): every column written as the SQL readers and older rows
 * expect it, read back unchanged, and the version bumped once per committed change.
 */
@RepositoryTest
class QuestionRepositoryTest {

    @Autowired
    QuestionRepository questions;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    TransactionTemplate transaction;

    private final JsonMapper json = JsonMapper.builder().build();

    @Test
    void everyColumnIsWrittenAsTheTableHoldsItAndReadBack() {
        UUID id = UUID.randomUUID();
        UUID doc = UUID.randomUUID();
        Citation citation = new Citation(doc, 10, 24, "leaves at noon", "D1:3");
        questions.save(Question.ask(
                id,
                CurrentTenant.DEFAULT,
                List.of(doc, UUID.randomUUID()),
                "When does the ferry leave?",
                "rag",
                json.valueToTree(List.of("at noon", "at dusk")),
                json.valueToTree(Map.of("k", 7))));
        change(id, Question::start);
        change(id, q -> q.degrade(json.valueToTree(List.of(Map.of("stage", "memos")))));
        change(
                id,
                q -> q.complete(
                        new StrategyResult("at noon", StrategyResult.GENERATED, List.of(citation), 0.75, 0, true)));

        Map<String, Object> row = jdbc.sql("""
                SELECT status, version, document_ids[1]::text AS first_doc, cardinality(document_ids) AS docs,
                       choices ->> 1 AS second_choice, (options ->> 'k')::int AS k, jsonb_typeof(options) AS options_type,
                       citations -> 0 ->> 'quote' AS quote, (citations -> 0 ->> 'start')::int AS start, citations -> 0 ->> 'turnId' AS turn,
                       degraded -> 0 ->> 'stage' AS degraded_stage, answer, mode, choice_index, confidence, budget_limited,
                       created_at IS NOT NULL AND started_at >= created_at AND finished_at >= started_at AS ordered_times,
                       waiting_for IS NULL AS not_waiting, failure_reason
                FROM question WHERE id = ?""").param(id).query().singleRow();
        assertThat(row)
                .containsEntry("status", "DONE")
                .containsEntry("version", 3L)
                .containsEntry("first_doc", doc.toString())
                .containsEntry("docs", 2)
                .containsEntry("second_choice", "at dusk")
                .containsEntry("k", 7)
                .containsEntry("options_type", "object")
                .containsEntry("quote", "leaves at noon")
                .containsEntry("start", 10)
                .containsEntry("turn", "D1:3")
                .containsEntry("degraded_stage", "memos")
                .containsEntry("answer", "at noon")
                .containsEntry("mode", "generated")
                .containsEntry("choice_index", 0)
                .containsEntry("confidence", 0.75)
                .containsEntry("budget_limited", true)
                .containsEntry("ordered_times", true)
                .containsEntry("not_waiting", true);
        assertThat(row.get("failure_reason")).isNull();

        Question read = questions.findByIdAndTenantId(id, CurrentTenant.DEFAULT).orElseThrow();
        assertThat(read.citations()).containsExactly(citation);
        assertThat(read.choices().get(1).asString()).isEqualTo("at dusk");
        assertThat(read.options().get("k").asInt()).isEqualTo(7);
        assertThat(read.version()).isEqualTo(3L);
        assertThat(questions.findByIdAndTenantId(id, UUID.randomUUID()))
                .as("another tenant's question is not found")
                .isEmpty();
    }

    @Test
    void aRowWrittenBySqlWithTheColumnDefaultsLoadsAndTransitions() {
        UUID id = UUID.randomUUID();
        jdbc.sql("""
                INSERT INTO question (id, tenant_id, document_ids, question, strategy, status)
                VALUES (?, ?, ARRAY[?]::uuid[], 'Who rang the bell?', 'extractive', 'QUEUED')""").params(id, CurrentTenant.DEFAULT, UUID.randomUUID()).update();

        Question loaded = questions.findById(id).orElseThrow();
        assertThat(loaded.version()).isZero();
        assertThat(loaded.options().isObject() && loaded.options().isEmpty())
                .as("options default to {}")
                .isTrue();
        assertThat(loaded.choices()).isNull();
        assertThat(loaded.citations()).isNull();

        change(id, q -> q.fail("no memory"));
        assertThat(jdbc.sql("SELECT status || ' ' || version || ' ' || failure_reason FROM question WHERE id = ?")
                        .param(id)
                        .query(String.class)
                        .single())
                .isEqualTo("FAILED 1 no memory");
    }

    private void change(UUID id, java.util.function.Consumer<Question> transition) {
        transaction.executeWithoutResult(
                status -> transition.accept(questions.findById(id).orElseThrow()));
    }
}
