package io.lorekeeper.eval;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.lorekeeper.security.CurrentTenant;
import io.lorekeeper.support.RepositoryTest;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@link Evaluation} mapping against the real {@code evaluation} table, and two replicas
 * counting progress on one run at once: the loser's write conflicts, is applied again on the
 * winner's state, and both counts survive.
 */
@RepositoryTest
class EvaluationRepositoryTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    Evaluations evaluations;

    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();

    @Autowired
    EvaluationStore store;

    @Autowired
    JdbcClient jdbc;

    @Test
    void everyColumnIsWrittenAsTheTableHoldsItAndReadBack() {
        UUID id = queued();
        store.change(id, Evaluation::start);
        store.change(id, e -> e.progress(3, 4));
        store.change(
                id, e -> e.finish(JSON.valueToTree(Map.of("rows", List.of(Map.of("strategy", "rag", "f1", 0.5))))));

        Map<String, Object> row = jdbc.sql("""
                SELECT status, version, dataset, request ->> 'dataset' AS requested, done, total, error,
                       report -> 'rows' -> 0 ->> 'strategy' AS first_strategy,
                       started_at >= created_at AND finished_at >= started_at AND updated_at >= started_at AS ordered_times
                FROM evaluation WHERE id = ?""").param(id).query().singleRow();
        assertThat(row)
                .containsEntry("status", "DONE")
                .containsEntry("version", 3L)
                .containsEntry("dataset", "jsonl")
                .containsEntry("requested", "jsonl")
                .containsEntry("done", 3)
                .containsEntry("total", 4)
                .containsEntry("first_strategy", "rag")
                .containsEntry("ordered_times", true);
        assertThat(row.get("error")).isNull();

        EvaluationStore.Stored stored = store.find(CurrentTenant.DEFAULT, id).orElseThrow();
        assertThat(stored.status()).isEqualTo("DONE");
        assertThat(stored.finished()).isTrue();
        assertThat(stored.startRequest().strategies()).containsExactly("rag");
        assertThat(stored.report().get("rows").get(0).get("f1").asDouble()).isEqualTo(0.5);
        assertThat(store.find(UUID.randomUUID(), id))
                .as("another tenant's evaluation is not found")
                .isEmpty();
    }

    @Test
    void aProgressReportThatLostTheRaceIsAppliedAgainOnTheWinnersCount() throws Exception {
        UUID id = queued();
        store.change(id, Evaluation::start);
        CountDownLatch loserLoaded = new CountDownLatch(1);
        CountDownLatch winnerCommitted = new CountDownLatch(1);
        AtomicInteger loserAttempts = new AtomicInteger();

        CompletableFuture<Void> loser = CompletableFuture.runAsync(
                () -> store.change(id, e -> {
                    loserAttempts.incrementAndGet();
                    loserLoaded.countDown();
                    await(winnerCommitted);
                    e.progress(3, 4);
                }),
                threads);
        await(loserLoaded);
        store.change(id, e -> e.progress(2, 4));
        winnerCommitted.countDown();
        loser.get(30, TimeUnit.SECONDS);

        assertThat(loserAttempts).hasValue(2);
        assertThat(jdbc.sql("SELECT done || '/' || total || ' v' || version FROM evaluation WHERE id = ?")
                        .param(id)
                        .query(String.class)
                        .single())
                .as("the winner's write, then the loser's on top of it")
                .isEqualTo("3/4 v3");
    }

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    private UUID queued() {
        UUID id = UUID.randomUUID();
        StartEvaluation request = new StartEvaluation(
                "jsonl",
                null,
                List.of(Map.of("id", "q1", "question", "Who?", "answer", "Ailsa", "context", "Ailsa rang the bell.")),
                List.of("rag"),
                null,
                null,
                null,
                null,
                null);
        evaluations.save(Evaluation.queue(id, CurrentTenant.DEFAULT, "jsonl", EvaluationStore.tree(request), 4));
        return id;
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(20, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the other transaction never got there");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
