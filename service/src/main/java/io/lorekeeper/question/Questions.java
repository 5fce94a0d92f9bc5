package io.lorekeeper.question;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.stereotype.Component;

import io.lorekeeper.strategy.AnswerKind;
import io.lorekeeper.strategy.Citation;

/**
 * Asking and reading questions for entry points other than the REST controller (the MCP server),
 * with the same validation and asynchronous execution as {@code POST /v1/questions}.
 */
@Component
public class Questions {

    private final QuestionIntake intake;
    private final QuestionStore store;
    private final QuestionSettings settings;

    Questions(QuestionIntake intake, QuestionStore store, QuestionSettings settings) {
        this.intake = intake;
        this.store = store;
        this.settings = settings;
    }

    /** A question as a caller sees it; {@code answer} and {@code citations} once {@code status} is DONE. */
    public record Answer(
            UUID id,
            QuestionStatus status,
            String question,
            String strategy,
            String answer,
            String mode,
            AnswerKind answerKind,
            List<Citation> citations,
            Double confidence,
            String failureReason) {

        public boolean finished() {
            return status.isFinished();
        }
    }

    /** Queues the question (refused with a problem naming the field, as over HTTP) and returns its id. */
    public UUID ask(List<UUID> documentIds, String question, String strategy) {
        return intake.ask(new QuestionApi.AskRequest(documentIds, question, strategy, null, null, null, null));
    }

    /** The longest a caller may wait for an answer ({@code waitSeconds}), as {@code POST /v1/questions} allows. */
    public java.time.Duration maxWait() {
        return settings.maxWait();
    }

    /** The question once it has finished, or as it stands after {@code wait}. */
    public Optional<Answer> await(UUID tenantId, UUID id, java.time.Duration wait) throws InterruptedException {
        return store.awaitFinished(tenantId, id, wait).map(Questions::answer);
    }

    public Optional<Answer> find(UUID tenantId, UUID id) {
        return store.find(tenantId, id).map(Questions::answer);
    }

    private static Answer answer(QuestionStore.StoredQuestion q) {
        return new Answer(
                q.id(),
                q.status(),
                q.question(),
                q.strategy(),
                q.answer(),
                q.mode(),
                q.answerKind(),
                q.citations() == null ? List.of() : q.citations(),
                q.confidence(),
                q.failureReason());
    }
}
