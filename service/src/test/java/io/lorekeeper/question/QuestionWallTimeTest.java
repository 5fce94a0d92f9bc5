package io.lorekeeper.question;

import static io.lorekeeper.support.TestDocuments.aText;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;

import io.lorekeeper.strategy.StrategyResult;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.IntegrationTest;
import io.lorekeeper.support.TestClock;
import io.lorekeeper.support.TestStrategies.ScriptedStrategy;
import tools.jackson.databind.JsonNode;

/**
 * A question still running a minute after its budget's wall time (10 minutes by default; the minute
 * is the strategy's to answer in) is cancelled: its strategy sees the cancellation and stops, and the
 * question is answered without a model (extractive), marked budget-limited, with the fallback in its
 * trace and its {@code degraded} list. The test moves the question clock instead of waiting.
 */
@IntegrationTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class QuestionWallTimeTest {

    @Autowired
    Api api;

    @Autowired
    ScriptedStrategy scripted;

    @Autowired
    TestClock clock;

    UUID document;

    @BeforeAll
    void ingest() {
        document = api.ingest(
                aText("The bothy at Corrour " + UUID.randomUUID() + " sleeps eight walkers on wooden boards.")
                        .build());
    }

    @AfterEach
    void resetClock() {
        clock.reset();
    }

    @Test
    void aQuestionStillRunningPastItsWallTimeLimitIsCancelledAndAnsweredWithoutTheModel() throws Exception {
        // the strategy works in steps the test paces, and reports whether it has been cancelled before each
        Semaphore step = new Semaphore(0);
        BlockingQueue<Boolean> cancelledBeforeStep = new LinkedBlockingQueue<>();
        scripted.script(context -> {
            for (int i = 0; i < 3; i++) {
                try {
                    if (!step.tryAcquire(60, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("the test never paced step " + i);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
                // read once: the test moves the clock as soon as it has seen this step's answer
                boolean cancelled = context.cancellation().isCancelled();
                cancelledBeforeStep.add(cancelled);
                if (cancelled) {
                    throw new java.util.concurrent.CancellationException("past the wall-time limit");
                }
            }
            return new StrategyResult("finished every step", StrategyResult.GENERATED, List.of(), 0.5, null, false);
        });
        Api.Response asked = api.post(
                "/v1/questions",
                Map.of(
                        "documentIds",
                        List.of(document),
                        "question",
                        "How many sleep there?",
                        "strategy",
                        "test-scripted"));
        UUID id = UUID.fromString(asked.json().get("id").asString());
        api.awaitQuestionStatus(id, "RUNNING", Duration.ofSeconds(30));

        step.release();
        assertThat(cancelledBeforeStep.poll(30, TimeUnit.SECONDS))
                .as("just started")
                .isFalse();
        clock.advance(Duration.ofMinutes(10).plusSeconds(50));
        step.release();
        assertThat(cancelledBeforeStep.poll(30, TimeUnit.SECONDS))
                .as("10 min 50 s in: past the budget, within the minute left to answer")
                .isFalse();
        clock.advance(Duration.ofSeconds(11));
        step.release();
        assertThat(cancelledBeforeStep.poll(30, TimeUnit.SECONDS))
                .as("11 min 1 s in: past the limit")
                .isTrue();

        JsonNode answered = api.awaitQuestion(id, Duration.ofSeconds(30));
        assertThat(answered.get("status").asString()).as(answered.toString()).isEqualTo("DONE");
        assertThat(answered.get("answer").asString()).isNotBlank();
        assertThat(answered.get("citations").get(0).get("quote").asString()).contains("sleeps eight walkers");
        assertThat(answered.get("mode").asString()).isEqualTo("extractive");
        assertThat(answered.get("budgetLimited").asBoolean()).isTrue();
        assertThat(answered.get("degraded").get(0).get("fallback").asString()).isEqualTo("extractive");
        List<JsonNode> statuses = new ArrayList<>();
        List<JsonNode> fallbacks = new ArrayList<>();
        api.get("/v1/questions/" + id + "/trace").json().get("events").forEach(e -> {
            if (e.get("type").asString().equals("run.status")) {
                statuses.add(e.get("payload"));
            }
            if (e.get("type").asString().equals("run.fallback")) {
                fallbacks.add(e.get("payload"));
            }
        });
        assertThat(statuses).extracting(p -> p.get("status").asString()).containsExactly("RUNNING", "DONE");
        assertThat(fallbacks).singleElement().satisfies(f -> {
            assertThat(f.get("strategy").asString()).isEqualTo("test-scripted");
            assertThat(f.get("reason").asString()).isEqualTo("the question ran past its wall-time limit");
        });
    }

    @Test
    void theLimitCountsFromWhenTheQuestionStartsRunning() throws Exception {
        // a clock already far ahead when the question starts does not cancel it: only time spent running counts
        clock.advance(Duration.ofHours(3));
        BlockingQueue<Boolean> cancelled = new LinkedBlockingQueue<>();
        scripted.script(context -> {
            cancelled.add(context.cancellation().isCancelled());
            return new StrategyResult("done in time", StrategyResult.GENERATED, List.of(), 0.5, null, false);
        });

        JsonNode answer = api.ask(
                Map.of("documentIds", List.of(document), "question", "Is there a stove?", "strategy", "test-scripted"));

        assertThat(answer.get("status").asString()).isEqualTo("DONE");
        assertThat(answer.get("answer").asString()).isEqualTo("done in time");
        assertThat(cancelled.poll(10, TimeUnit.SECONDS)).isFalse();
    }
}
