package io.lorekeeper.eval;

import java.util.List;
import java.util.Map;

/**
 * One question of a dataset, with the document it is asked about.
 *
 * @param documentKey items with the same key share one document (ingested once per run)
 * @param document the body posted to {@code POST /v1/documents}: {@code {title, text}} or {@code {title, sessions}}
 * @param answers gold answers (any one is right)
 * @param choices choices of a multiple-choice question, else empty
 * @param answerIndex the right choice (0-based) for a multiple-choice question, else null
 * @param evidence gold evidence: turn ids for a conversation document, verbatim text snippets otherwise
 * @param category the dataset's category of the question (LoCoMo 1-5, LooGLE type, ...), or "all"
 */
public record EvalItem(
        String id,
        String dataset,
        String documentKey,
        Map<String, Object> document,
        String question,
        List<String> answers,
        List<String> choices,
        Integer answerIndex,
        List<String> evidence,
        String category) {

    public EvalItem {
        answers = answers == null ? List.of() : List.copyOf(answers);
        choices = choices == null ? List.of() : List.copyOf(choices);
        evidence = evidence == null ? List.of() : List.copyOf(evidence);
        category = category == null || category.isBlank() ? "all" : category;
    }

    public boolean conversation() {
        return document.containsKey("sessions");
    }
}
