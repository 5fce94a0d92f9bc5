package io.lorekeeper.question;

import java.time.Duration;
import java.util.Map;

import io.lorekeeper.llm.LlmUsage;
import io.lorekeeper.question.QuestionApi.QuestionUsage;
import io.lorekeeper.question.QuestionApi.QuestionView;
import io.lorekeeper.question.QuestionApi.Rewrite;
import io.lorekeeper.question.QuestionApi.Timings;
import io.lorekeeper.question.QuestionStore.StoredQuestion;

/** A stored question as the API shows it, alone or in its thread. */
final class QuestionViews {

    private QuestionViews() {}

    static QuestionView view(StoredQuestion q, LlmUsage usage) {
        Long queuedMs = q.startedAt() == null
                ? null
                : Duration.between(q.createdAt(), q.startedAt()).toMillis();
        Long runMs = q.startedAt() == null || q.finishedAt() == null
                ? null
                : Duration.between(q.startedAt(), q.finishedAt()).toMillis();
        String self = "/v1/questions/" + q.id();
        return new QuestionView(
                q.id(),
                q.status(),
                q.question(),
                q.strategy(),
                q.documentIds(),
                q.choices(),
                q.options(),
                q.answer(),
                q.mode(),
                q.answerKind(),
                q.choiceIndex(),
                q.citations(),
                q.confidence(),
                q.status() == QuestionStatus.DONE ? q.budgetLimited() : null,
                q.failureReason(),
                q.status() == QuestionStatus.QUEUED ? q.waitingFor() : null,
                q.degraded(),
                new Timings(q.createdAt(), q.startedAt(), q.finishedAt(), queuedMs, runMs),
                usage(q, usage),
                q.threadId(),
                rewrite(q),
                Map.of("self", self, "trace", self + "/trace", "events", self + "/events"));
    }

    /** A follow-up's reading, once its run has read it: the standalone question, or why it was asked as it was. */
    private static Rewrite rewrite(StoredQuestion q) {
        if (q.threadId() == null || (q.standaloneQuestion() == null && q.rewriteNote() == null)) {
            return null;
        }
        return new Rewrite(q.standaloneQuestion(), q.standaloneQuestion() == null, q.rewriteNote());
    }

    /** Read on every view: one indexed aggregate, and a running question's cost grows while it is watched. */
    private static QuestionUsage usage(StoredQuestion q, LlmUsage usage) {
        if (q.status() == QuestionStatus.QUEUED) {
            return null;
        }
        LlmUsage.Totals t = usage.ofQuestion(q.id());
        return new QuestionUsage(t.calls(), t.promptTokens(), t.completionTokens(), t.cacheHits(), t.llmMs());
    }
}
