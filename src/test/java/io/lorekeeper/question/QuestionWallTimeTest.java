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

import io.lorekeeper.reasoning.StrategyResult;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.IntegrationTest;
import io.lorekeeper.support.TestClock;
import io.lorekeeper.support.TestStrategies.ScriptedStrategy;
import tools.jackson.databind.JsonNode;

/**
 * A question still running when its wall-time limit ({@code lorekeeper.questions.max-wall-time},
 * 10 minutes) is reached is cancelled: its strategy sees the cancellation and stops, and the question
 * fails with a reason that says so. The test moves the question clock instead of waiting.
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
    void aQuestionStillRunningAtItsWallTimeLimitIsCancelledAndFailsSayingSo() throws Exception {
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
        clock.advance(Duration.ofMinutes(9).plusSeconds(50));
        step.release();
        assertThat(cancelledBeforeStep.poll(30, TimeUnit.SECONDS))
                .as("9 min 50 s in: within the limit")
                .isFalse();
        clock.advance(Duration.ofSeconds(11));
        step.release();
        assertThat(cancelledBeforeStep.poll(30, TimeUnit.SECONDS))
                .as("10 min 1 s in: past the limit")
                .isTrue();

        JsonNode failed = api.awaitQuestion(id, Duration.ofSeconds(30));
        assertThat(failed.get("status").asString()).isEqualTo("FAILED");
        assertThat(failed.get("failureReason").asString())
                .isEqualTo("stopped: the question ran longer than its wall-time limit");
        assertThat(failed.path("answer").isMissingNode() || failed.get("answer").isNull())
                .as(failed.toString())
                .isTrue();
        List<JsonNode> statuses = new ArrayList<>();
        api.get("/v1/questions/" + id + "/trace").json().get("events").forEach(e -> {
            if (e.get("type").asString().equals("status")) {
                statuses.add(e.get("payload"));
            }
        });
        assertThat(statuses).extracting(p -> p.get("status").asString()).containsExactly("RUNNING", "FAILED");
        assertThat(statuses.getLast().get("reason").asString()).contains("wall-time limit");
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
