package io.lorekeeper.memcot;

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
record MemCotAnswer(
        @NotNull String answer,
        @Valid List<Evidence> evidence,
        @NotNull @DecimalMin("0") @DecimalMax("1") Double confidence,
        @PositiveOrZero Integer choice) {

    /** How sure a prose answer is taken to be: the model ignored the format, so it is not trusted much. */
    static final double PROSE_CONFIDENCE = 0.2;

    MemCotAnswer {
        evidence = evidence == null ? List.of() : evidence;
    }

    /** A prose reply where JSON was asked: the text is the answer, and the units it names are its evidence. */
    static MemCotAnswer fromProse(String text) {
        return new MemCotAnswer(
                text.strip(),
                Perception.labelsIn(text).stream()
                        .map(id -> new Evidence(id, ""))
                        .toList(),
                PROSE_CONFIDENCE,
                null);
    }

    /** @param quote may be empty: the whole unit is then the evidence */
    record Evidence(@NotBlank String id, String quote) {}
}
