package io.lorekeeper.rag;

import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;

/**
 * What the answerer returns for a RAG question.
 *
 * @param choice index of the chosen choice for multiple-choice questions, else null
 */
record RagReply(
        @NotNull String answer,
        List<@Valid Evidence> evidence,
        @NotNull @DecimalMin("0") @DecimalMax("1") Double confidence,
        @PositiveOrZero Integer choice) {

    /** Confidence given to an answer the model wrote as prose instead of the JSON asked for: it cites nothing. */
    static final double PLAIN_TEXT_CONFIDENCE = 0.2;

    static RagReply plainText(String text) {
        return new RagReply(text, List.of(), PLAIN_TEXT_CONFIDENCE, null);
    }

    record Evidence(
            @NotNull @Positive Integer passage, @NotNull String quote) {}
}
