package io.lorekeeper.question;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

import io.lorekeeper.platform.IllegalTransitionException;
import io.lorekeeper.strategy.Citation;
import io.lorekeeper.strategy.StrategyResult;
import tools.jackson.databind.json.JsonMapper;

/** The question aggregate's legal transitions, and the refusal of every other one, without Spring or a database. */
class QuestionTransitionsTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final UUID DOC = UUID.randomUUID();
    private static final StrategyResult RESULT = new StrategyResult(
            "noon", StrategyResult.GENERATED, List.of(Citation.of(DOC, 4, 8, "noon")), 0.8, null, true);

    @Test
    void aQuestionRunsFromQueuedToDone() {
        Question q = queued();
        assertThat(q.status()).isEqualTo(QuestionStatus.QUEUED);
        assertThat(q.createdAt()).isNotNull();

        q.start();
        assertThat(q.status()).isEqualTo(QuestionStatus.RUNNING);
        assertThat(q.startedAt()).isNotNull();

        q.degrade(JSON.valueToTree(List.of("memos")));
        q.complete(RESULT);
        assertThat(q.status()).isEqualTo(QuestionStatus.DONE);
        assertThat(q.answer()).isEqualTo("noon");
        assertThat(q.citations()).containsExactly(Citation.of(DOC, 4, 8, "noon"));
        assertThat(q.budgetLimited()).isTrue();
        assertThat(q.degraded().get(0).asString()).isEqualTo("memos");
        assertThat(q.finishedAt()).isNotNull();
    }

    @Test
    void degradedEntriesAccumulateAndTheResultIsRecordedAsGiven() {
        UUID tenant = UUID.randomUUID();
        Question q = Question.ask(
                UUID.randomUUID(),
                tenant,
                List.of(DOC),
                "Which ferry?",
                "extractive",
                JSON.valueToTree(List.of("the early one", "the late one")),
                JSON.valueToTree(java.util.Map.of("k", 3)));
        assertThat(q.tenantId()).isEqualTo(tenant);
        assertThat(q.documentIds()).containsExactly(DOC);
        assertThat(q.question()).isEqualTo("Which ferry?");
        assertThat(q.strategy()).isEqualTo("extractive");
        assertThat(q.choices().get(1).asString()).isEqualTo("the late one");
        assertThat(q.options().get("k").asInt()).isEqualTo(3);

        q.start();
        q.degrade(JSON.valueToTree(List.of("memos")));
        q.degrade(JSON.valueToTree(List.of("graph", "notes")));
        assertThat(q.degraded()).extracting(n -> n.asString()).containsExactly("memos", "graph", "notes");
        q.degrade(JSON.valueToTree(java.util.Map.of("fallback", "rag")));
        assertThat(q.degraded().get("fallback").asString())
                .as("an entry that is not a list replaces the list")
                .isEqualTo("rag");

        q.complete(new StrategyResult("the late one", StrategyResult.EXTRACTIVE, List.of(), 0.4, 1, false));
        assertThat(q.budgetLimited()).isFalse();
        assertThat(q.mode()).isEqualTo(StrategyResult.EXTRACTIVE);
        assertThat(q.choiceIndex()).isEqualTo(1);
        assertThat(q.confidence()).isEqualTo(0.4);
    }

    @Test
    void aFailedQuestionIsRetriedFromScratch() {
        Question q = queued();
        q.start();
        q.degrade(JSON.valueToTree(List.of("memos")));
        q.fail("the model endpoint refused the key");
        assertThat(q.status()).isEqualTo(QuestionStatus.FAILED);
        assertThat(q.failureReason()).isEqualTo("the model endpoint refused the key");

        q.retry();
        assertThat(q.status()).isEqualTo(QuestionStatus.QUEUED);
        assertThat(q.failureReason()).isNull();
        assertThat(q.startedAt()).isNull();
        assertThat(q.finishedAt()).isNull();
        assertThat(q.degraded()).isNull();
    }

    @Test
    void waitingForAMemoryKeepsItQueuedAndStartingClearsTheWait() {
        Question q = queued();
        q.waitFor(JSON.valueToTree(List.of("graph")));
        assertThat(q.status()).isEqualTo(QuestionStatus.QUEUED);
        assertThat(q.waitingFor()).isNotNull();
        q.start();
        assertThat(q.waitingFor()).isNull();
    }

    @Test
    void aRevivedJobStartsARunningQuestionAgainAndARateLimitRequeuesIt() {
        Question q = queued();
        q.start();
        q.start();
        assertThat(q.status()).isEqualTo(QuestionStatus.RUNNING);
        q.requeue();
        assertThat(q.status()).isEqualTo(QuestionStatus.QUEUED);
        assertThat(q.startedAt()).isNull();
    }

    @Test
    void aFinishedQuestionRefusesToStartCompleteFailOrRequeue() {
        Question done = queued();
        done.start();
        done.complete(RESULT);
        refuses(done, "start", Question::start);
        refuses(done, "complete", q -> q.complete(RESULT));
        refuses(done, "fail", q -> q.fail("late"));
        refuses(done, "requeue", Question::requeue);
        refuses(done, "retry", Question::retry);
        refuses(done, "wait for memories", q -> q.waitFor(JSON.valueToTree(List.of())));
        assertThat(done.status()).isEqualTo(QuestionStatus.DONE);
        assertThat(done.answer())
                .as("the refused changes left the answer alone")
                .isEqualTo("noon");

        Question failed = queued();
        failed.fail("no such memory");
        refuses(failed, "start", Question::start);
        refuses(failed, "complete", q -> q.complete(RESULT));
        refuses(failed, "fail", q -> q.fail("again"));
        assertThat(failed.failureReason()).isEqualTo("no such memory");
    }

    @Test
    void onlyAFailedQuestionCanBeRetriedAndOnlyARunningOneCompletes() {
        refuses(queued(), "retry", Question::retry);
        refuses(queued(), "complete", q -> q.complete(RESULT));
        refuses(queued(), "requeue", Question::requeue);
        refuses(queued(), "run degraded", q -> q.degrade(JSON.valueToTree(List.of())));
        Question running = queued();
        running.start();
        refuses(running, "retry", Question::retry);
    }

    @Test
    void theRefusalNamesTheQuestionItsStateAndTheStatesThatWouldAllowIt() {
        Question q = queued();
        assertThatThrownBy(q::retry).isInstanceOfSatisfying(IllegalTransitionException.class, e -> {
            assertThat(e.aggregate()).isEqualTo("Question");
            assertThat(e.id()).isEqualTo(q.id());
            assertThat(e.state()).isEqualTo("QUEUED");
            assertThat(e.transition()).isEqualTo("retry");
            assertThat(e.allowedFrom()).containsExactly("FAILED");
            assertThat(e.getMessage()).isEqualTo("question " + q.id() + " is QUEUED; retry needs it FAILED");
        });
    }

    private static void refuses(Question q, String transition, Consumer<Question> change) {
        QuestionStatus before = q.status();
        assertThatThrownBy(() -> change.accept(q))
                .as(transition + " from " + before)
                .isInstanceOfSatisfying(
                        IllegalTransitionException.class,
                        e -> assertThat(e.transition()).isEqualTo(transition));
        assertThat(q.status()).isEqualTo(before);
    }

    private static Question queued() {
        return Question.ask(
                UUID.randomUUID(),
                UUID.randomUUID(),
                List.of(DOC),
                "When does the ferry leave?",
                "rag",
                null,
                JSON.valueToTree(java.util.Map.of("k", 5)));
    }
}
