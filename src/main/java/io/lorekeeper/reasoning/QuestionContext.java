package io.lorekeeper.reasoning;

import java.util.List;
import java.util.UUID;

import io.lorekeeper.document.DocumentInfo;
import io.lorekeeper.retrieval.Retriever;

/**
 * Everything a strategy gets for one question. The LLM gateway, bound to the question's budget,
 * joins this record when the gateway lands.
 *
 * @param choices empty unless the question is multiple choice
 */
public record QuestionContext(UUID questionId, String question, List<String> choices, QuestionOptions options,
        List<DocumentInfo> documents, Retriever retriever, Trace trace, Cancellation cancellation) {

    public QuestionContext {
        choices = choices == null ? List.of() : List.copyOf(choices);
        documents = List.copyOf(documents);
    }

    public List<UUID> documentIds() {
        return documents.stream().map(DocumentInfo::id).toList();
    }

    public boolean isMultipleChoice() {
        return !choices.isEmpty();
    }
}
