package io.lorekeeper.reasoning.memcot;

import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.PositiveOrZero;

/**
 * The responder's answer from the short-term memory: the evidence it rests on, by unit id, with the
 * words copied from each.
 *
 * @param choice index of the chosen choice for multiple-choice questions, else null
 */
record MemCotAnswer(@NotNull String answer, @Valid List<Evidence> evidence,
        @NotNull @DecimalMin("0") @DecimalMax("1") Double confidence, @PositiveOrZero Integer choice) {

    MemCotAnswer {
        evidence = evidence == null ? List.of() : evidence;
    }

    /** @param quote may be empty: the whole unit is then the evidence */
    record Evidence(@NotBlank String id, String quote) {
    }
}
