package io.lorekeeper.question;

import static io.lorekeeper.support.TestDocuments.aText;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.orm.ObjectOptimisticLockingFailureException;
import org.springframework.transaction.support.TransactionTemplate;

import io.lorekeeper.platform.IllegalTransitionException;
import io.lorekeeper.security.CurrentTenant;
import io.lorekeeper.strategy.StrategyResult;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.Api.Response;
import io.lorekeeper.support.IntegrationTest;
import io.lorekeeper.support.TestStrategies.ScriptedStrategy;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Two replicas racing on one question: both load it in the same state and both try to move it on.
 * The version lets exactly one commit; the other's write is refused instead of overwriting it,
 * and a caller that retries ({@link QuestionStore#change}) re-reads the winner's state, where the
 * transition is refused cleanly. Nothing the winner stored is lost.
 */
@IntegrationTest
class QuestionRaceTest {

    private static final StrategyResult FIRST =
            new StrategyResult("at noon", StrategyResult.GENERATED, List.of(), 0.9, null, false);
    private static final StrategyResult SECOND =
            new StrategyResult("at dusk", StrategyResult.GENERATED, List.of(), 0.4, null, false);

    @Autowired
    QuestionRepository questions;
    // not the common pool: on a two-core machine it runs one task at a time, and the racers wait for each other
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();

    @Autowired
    QuestionStore store;

    @Autowired
    TransactionTemplate transaction;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    JsonMapper json;

    @Autowired
    Api api;

    @Autowired
    ScriptedStrategy scripted;

    @Test
    void ofTwoTransactionsThatLoadedTheSameQuestionOnlyTheFirstCommitWins() throws Exception {
        UUID id = running();
        CountDownLatch bothLoaded = new CountDownLatch(2);
        CountDownLatch firstCommitted = new CountDownLatch(1);

        CompletableFuture<Void> first = CompletableFuture.runAsync(
                () -> {
                    transaction.executeWithoutResult(status -> {
                        Question q = questions.findById(id).orElseThrow();
                        bothLoaded.countDown();
                        await(bothLoaded);
                        q.complete(FIRST);
                    });
                    firstCommitted.countDown();
                },
                threads);
        CompletableFuture<Void> second = CompletableFuture.runAsync(
                () -> transaction.executeWithoutResult(status -> {
                    Question q = questions.findById(id).orElseThrow();
                    bothLoaded.countDown();
                    await(firstCommitted);
                    assertThat(q.status()).as("it still sees the state it read").isEqualTo(QuestionStatus.RUNNING);
                    q.complete(SECOND); // legal on the state it read: only the version tells it is stale
                }),
                threads);

        first.get(30, TimeUnit.SECONDS);
        assertThatThrownBy(() -> second.get(30, TimeUnit.SECONDS))
                .hasCauseInstanceOf(ObjectOptimisticLockingFailureException.class);
        assertThat(stored(id)).isEqualTo("DONE at noon v2");
    }

    @Test
    void aJobThatLosesTheRaceRetriesOnTheFreshStateAndIsRefusedCleanly() throws Exception {
        UUID id = running();
        CountDownLatch loserLoaded = new CountDownLatch(1);
        CountDownLatch winnerCommitted = new CountDownLatch(1);
        AtomicInteger loserAttempts = new AtomicInteger();

        CompletableFuture<Void> loser = CompletableFuture.runAsync(
                () -> store.change(id, q -> {
                    loserAttempts.incrementAndGet();
                    loserLoaded.countDown();
                    await(winnerCommitted);
                    q.complete(SECOND);
                }),
                threads);
        await(loserLoaded);
        store.change(id, q -> q.complete(FIRST));
        winnerCommitted.countDown();

        assertThatThrownBy(() -> loser.get(30, TimeUnit.SECONDS))
                .cause()
                .isInstanceOfSatisfying(IllegalTransitionException.class, e -> {
                    assertThat(e.state()).isEqualTo("DONE");
                    assertThat(e.transition()).isEqualTo("complete");
                });
        assertThat(loserAttempts)
                .as("the conflict, then the fresh read that refuses")
                .hasValue(2);
        assertThat(stored(id)).isEqualTo("DONE at noon v2");
    }

    @Test
    void aChangeThatStillAppliesToTheFreshStateIsAppliedOnTheRetryKeepingTheWinnersChange() throws Exception {
        UUID id = running();
        CountDownLatch loserLoaded = new CountDownLatch(1);
        CountDownLatch winnerCommitted = new CountDownLatch(1);
        AtomicInteger loserAttempts = new AtomicInteger();

        // one replica records the memories it runs without while another (a revived job) starts it again
        CompletableFuture<Void> loser = CompletableFuture.runAsync(
                () -> store.change(id, q -> {
                    loserAttempts.incrementAndGet();
                    loserLoaded.countDown();
                    await(winnerCommitted);
                    q.degrade(json.valueToTree(List.of(Map.of("stage", "memos"))));
                }),
                threads);
        await(loserLoaded);
        java.time.Instant before = questions.findById(id).orElseThrow().startedAt();
        store.change(id, Question::start);
        winnerCommitted.countDown();
        loser.get(30, TimeUnit.SECONDS);

        Question q = questions.findById(id).orElseThrow();
        assertThat(loserAttempts).hasValue(2);
        assertThat(q.version()).isEqualTo(3L);
        assertThat(q.startedAt()).as("the winner's restart is kept").isAfter(before);
        assertThat(q.degraded().get(0).get("stage").asString())
                .as("and so is the loser's change")
                .isEqualTo("memos");
    }

    @Test
    void ofTwoRetriesOfOneFailedQuestionRacingOverHttpOneIsAcceptedAndTheOtherRefused() throws Exception {
        UUID doc = api.ingest(aText("The bell of Dunmore rang eleven times at the wedding of Ailsa Grant.")
                .build());
        scripted.script(
                context -> new StrategyResult("eleven times", StrategyResult.GENERATED, List.of(), 0.9, null, false));
        UUID id = UUID.randomUUID();
        questions.save(Question.ask(
                id,
                CurrentTenant.DEFAULT,
                List.of(doc),
                "How often did the bell ring?",
                "test-scripted",
                null,
                json.valueToTree(Map.of())));
        store.change(id, q -> q.fail("the model endpoint timed out"));

        CyclicBarrier together = new CyclicBarrier(2);
        List<Future<Response>> retries = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            retries.add(threads.submit(() -> {
                together.await(20, TimeUnit.SECONDS);
                return api.post("/v1/questions/" + id + "/retry", Map.of());
            }));
        }
        List<Response> responses = new ArrayList<>();
        for (Future<Response> retry : retries) {
            responses.add(retry.get(60, TimeUnit.SECONDS));
        }

        assertThat(responses).extracting(Response::status).containsExactlyInAnyOrder(202, 409);
        Response refused =
                responses.stream().filter(r -> r.status() == 409).findFirst().orElseThrow();
        // refused by the state it read after the winner committed, or by the version when both read FAILED
        assertThat(refused.json().get("type").asString())
                .as(refused.body())
                .matches(".*/(illegal-transition|concurrent-update)");
        JsonNode done = api.awaitQuestion(id, Duration.ofSeconds(30));
        assertThat(done.get("status").asString()).isEqualTo("DONE");
        assertThat(done.get("answer").asString()).isEqualTo("eleven times");
        List<String> runs = new ArrayList<>();
        api.get("/v1/questions/" + id + "/trace").json().get("events").forEach(e -> {
            if (e.get("type").asString().equals("run.status")) {
                runs.add(e.get("payload").get("status").asString());
            }
        });
        assertThat(runs).as("one job ran the retried question, once").containsExactly("RUNNING", "DONE");
    }

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    private UUID running() {
        return RunningQuestions.start(questions, store, json);
    }

    private String stored(UUID id) {
        return jdbc.sql("SELECT status || ' ' || answer || ' v' || version FROM question WHERE id = ?")
                .param(id)
                .query(String.class)
                .single();
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
