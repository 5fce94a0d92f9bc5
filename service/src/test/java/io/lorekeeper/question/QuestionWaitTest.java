package io.lorekeeper.question;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.lorekeeper.security.CurrentTenant;
import io.lorekeeper.strategy.StrategyResult;
import io.lorekeeper.support.IntegrationTest;
import tools.jackson.databind.json.JsonMapper;

/**
 * A request waiting for its answer ({@code waitSeconds}) gets it whether this replica finishes the
 * question (woken by the finish itself) or another one does (found by reading the status), and
 * gets the question as it stands when the wait is over.
 */
@IntegrationTest
class QuestionWaitTest {

    private static final StrategyResult ANSWER =
            new StrategyResult("at noon", StrategyResult.GENERATED, List.of(), 0.9, null, false);

    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();

    @Autowired
    QuestionRepository questions;

    @Autowired
    QuestionStore store;

    @Autowired
    FinishedQuestions finished;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    JsonMapper json;

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    @Test
    void finishingHereSignalsTheWaitersOfThatQuestionOnly() {
        UUID id = running();
        UUID other = running();
        CompletableFuture<QuestionStore.StoredQuestion> signal = finished.watch(id);
        CompletableFuture<QuestionStore.StoredQuestion> otherSignal = finished.watch(other);

        store.change(id, q -> q.complete(ANSWER));

        assertThat(signal).isDone();
        assertThat(otherSignal).isNotDone();
        finished.unwatch(other, otherSignal);
    }

    @Test
    void aTransitionThatDoesNotFinishSignalsNothing() {
        UUID id = running();
        CompletableFuture<QuestionStore.StoredQuestion> signal = finished.watch(id);

        store.change(id, Question::requeue);

        assertThat(signal).isNotDone();
        finished.unwatch(id, signal);
    }

    @Test
    void aWaiterGetsTheAnswerThisReplicaStores() throws Exception {
        UUID id = running();
        Future<Optional<QuestionStore.StoredQuestion>> waiting =
                threads.submit(() -> store.awaitFinished(CurrentTenant.DEFAULT, id, Duration.ofSeconds(60)));
        awaitWatched(id);

        store.change(id, q -> q.complete(ANSWER));

        QuestionStore.StoredQuestion answered =
                waiting.get(30, TimeUnit.SECONDS).orElseThrow();
        assertThat(answered.status()).isEqualTo(QuestionStatus.DONE);
        assertThat(answered.answer()).isEqualTo("at noon");
        assertThat(answered)
                .as("handed over as committed: what a later read finds")
                .isEqualTo(store.find(id).orElseThrow());
    }

    @Test
    void aWaiterGetsTheAnswerAnotherReplicaStores() throws Exception {
        UUID id = running();
        Future<Optional<QuestionStore.StoredQuestion>> waiting =
                threads.submit(() -> store.awaitFinished(CurrentTenant.DEFAULT, id, Duration.ofSeconds(60)));
        awaitWatched(id);

        // written behind this replica's back, as another replica's job would
        jdbc.sql(
                        "UPDATE question SET status = 'DONE', answer = 'at dusk', finished_at = now(), version = version + 1 WHERE id = ?")
                .param(id)
                .update();

        QuestionStore.StoredQuestion answered =
                waiting.get(30, TimeUnit.SECONDS).orElseThrow();
        assertThat(answered.status()).isEqualTo(QuestionStatus.DONE);
        assertThat(answered.answer()).isEqualTo("at dusk");
    }

    @Test
    void whenTheWaitIsOverTheQuestionComesBackAsItStands() throws Exception {
        UUID id = running();

        Optional<QuestionStore.StoredQuestion> stands =
                store.awaitFinished(CurrentTenant.DEFAULT, id, Duration.ofMillis(250));

        assertThat(stands).map(QuestionStore.StoredQuestion::status).contains(QuestionStatus.RUNNING);
        assertThat(store.awaitFinished(UUID.randomUUID(), id, Duration.ofMillis(250)))
                .as("another tenant's question")
                .isEmpty();
    }

    /** Until the waiter has registered its signal (it does so before its first read). */
    private void awaitWatched(UUID id) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!finished.isWatched(id) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(finished.isWatched(id)).as("the waiter registered").isTrue();
    }

    private UUID running() {
        return RunningQuestions.start(questions, store, json);
    }
}
