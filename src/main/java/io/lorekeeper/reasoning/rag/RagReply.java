package io.lorekeeper.reasoning.rag;

import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.PositiveOrZero;

/**
 * What the answerer returns for a RAG question.
 *
 * @param choice index of the chosen choice for multiple-choice questions, else null
 */
record RagReply(@NotNull String answer, @Valid List<Evidence> evidence,
        @NotNull @DecimalMin("0") @DecimalMax("1") Double confidence, @PositiveOrZero Integer choice) {

    record Evidence(@NotNull Integer passage, @NotNull String quote) {
    }
}
