package io.lorekeeper.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

import io.lorekeeper.platform.IllegalTransitionException;
import tools.jackson.databind.json.JsonMapper;

/** The evaluation aggregate's legal transitions, and the refusal of every other one, without Spring or a database. */
class EvaluationTransitionsTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void aRunGoesFromQueuedToDoneCountingItsQuestions() {
        Evaluation e = queued();
        e.start();
        e.progress(2, 6);
        e.progress(1, 6); // a slower question reports late
        assertThat(e.done()).as("progress never goes back").isEqualTo(2);
        e.progress(6, 6);
        e.finish(JSON.valueToTree(Map.of("accuracy", 1.0)));
        assertThat(e.status()).isEqualTo(EvaluationStatus.DONE);
        assertThat(e.report().get("accuracy").asDouble()).isEqualTo(1.0);
        assertThat(e.finishedAt()).isNotNull();
    }

    @Test
    void aFailedRunIsRetriedKeepingItsFinishedQuestionsAndAStoppedOneIsSuspended() {
        Evaluation e = queued();
        e.start();
        e.progress(4, 6);
        e.fail("dataset vanished");
        assertThat(e.error()).isEqualTo("dataset vanished");
        e.retry(3);
        assertThat(e.status()).isEqualTo(EvaluationStatus.QUEUED);
        assertThat(e.done()).isEqualTo(3);
        assertThat(e.error()).isNull();
        assertThat(e.finishedAt()).isNull();

        e.start();
        e.suspend(5);
        assertThat(e.status()).isEqualTo(EvaluationStatus.QUEUED);
        assertThat(e.done()).isEqualTo(5);
    }

    @Test
    void refusedTransitionsLeaveTheRunAsItWas() {
        Evaluation queued = queued();
        refuses(queued, "retry", x -> x.retry(0));
        refuses(queued, "finish", x -> x.finish(null));
        refuses(queued, "record progress", x -> x.progress(1, 6));
        refuses(queued, "suspend", x -> x.suspend(0));

        Evaluation done = queued();
        done.start();
        done.finish(JSON.valueToTree(Map.of("accuracy", 0.5)));
        refuses(done, "start", Evaluation::start);
        refuses(done, "fail", x -> x.fail("late"));
        refuses(done, "retry", x -> x.retry(0));
        refuses(done, "record progress", x -> x.progress(6, 6));
        assertThat(done.report().get("accuracy").asDouble()).isEqualTo(0.5);

        Evaluation failed = queued();
        failed.fail("no such file");
        refuses(failed, "start", Evaluation::start);
        refuses(failed, "finish", x -> x.finish(null));
        assertThat(failed.error()).isEqualTo("no such file");
    }

    private static void refuses(Evaluation e, String transition, Consumer<Evaluation> change) {
        EvaluationStatus before = e.status();
        int doneBefore = e.done();
        assertThatThrownBy(() -> change.accept(e))
                .as(transition + " from " + before)
                .isInstanceOfSatisfying(IllegalTransitionException.class, x -> {
                    assertThat(x.transition()).isEqualTo(transition);
                    assertThat(x.aggregate()).isEqualTo("Evaluation");
                    assertThat(x.state()).isEqualTo(before.name());
                });
        assertThat(e.status()).isEqualTo(before);
        assertThat(e.done()).isEqualTo(doneBefore);
    }

    private static Evaluation queued() {
        return Evaluation.queue(
                UUID.randomUUID(), UUID.randomUUID(), "jsonl", JSON.valueToTree(Map.of("dataset", "jsonl")), 6);
    }
}
