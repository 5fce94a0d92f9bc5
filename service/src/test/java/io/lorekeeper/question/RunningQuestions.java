package io.lorekeeper.question;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.lorekeeper.security.CurrentTenant;
import tools.jackson.databind.json.JsonMapper;

/** A question of the default tenant stored and started, as a job would leave it: for tests of what happens next. */
final class RunningQuestions {

    private RunningQuestions() {}

    static UUID start(QuestionRepository questions, QuestionStore store, JsonMapper json) {
        UUID id = UUID.randomUUID();
        questions.save(Question.ask(
                id,
                CurrentTenant.DEFAULT,
                List.of(UUID.randomUUID()),
                "When does the ferry leave?",
                "rag",
                null,
                json.valueToTree(Map.of())));
        store.change(id, Question::start);
        return id;
    }
}
