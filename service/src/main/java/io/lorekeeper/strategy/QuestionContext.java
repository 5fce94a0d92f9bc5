package io.lorekeeper.strategy;

import java.util.List;
import java.util.UUID;

import io.lorekeeper.document.DocumentInfo;
import io.lorekeeper.llm.LlmSession;
import io.lorekeeper.retrieval.Retriever;

/**
 * Everything a strategy gets for one question.
 *
 * @param choices empty unless the question is multiple choice
 * @param llm     the LLM gateway bound to this question's budget; calls fail when no LLM is configured
 */
public record QuestionContext(
        UUID questionId,
        String question,
        List<String> choices,
        QuestionOptions options,
        List<DocumentInfo> documents,
        Retriever retriever,
        LlmSession llm,
        Trace trace,
        Cancellation cancellation) {

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
