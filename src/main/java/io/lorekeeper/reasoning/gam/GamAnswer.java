package io.lorekeeper.reasoning.gam;

import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;

/** The answerer's output over the research result. */
record GamAnswer(@NotNull String answer, @NotNull List<@Valid Evidence> evidence,
        @NotNull @DecimalMin("0") @DecimalMax("1") Double confidence, Integer choice) {

    record Evidence(@NotNull Integer excerpt, @NotNull String quote) {
    }
}
