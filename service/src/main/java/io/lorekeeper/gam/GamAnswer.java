package io.lorekeeper.gam;

import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;

/** The answerer's output over the research result. */
record GamAnswer(
        @NotNull String answer,
        @NotNull List<@Valid Evidence> evidence,
        @NotNull @DecimalMin("0") @DecimalMax("1") Double confidence,
        Integer choice) {

    /** An answer the model wrote as prose instead of JSON: kept, uncited, with low confidence. */
    static GamAnswer plainText(String text) {
        return new GamAnswer(text, List.of(), 0.2, null);
    }

    record Evidence(
            @NotNull @jakarta.validation.constraints.Positive
            Integer excerpt,

            @NotNull String quote) {}
}
