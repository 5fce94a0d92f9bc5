package io.lorekeeper.cosmir;

import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;

/** What each COSMIR prompt returns. Per-item constraints sit on the list elements, so one bad item costs only itself. */
final class Replies {

    private Replies() {}

    /**
     * The planner's seed questions, after its reasoning: the paper's planner works through three steps
     * (deconstruct the query, choose its angles, write the questions) before it writes them; the
     * reasoning goes to the trace only.
     */
    record Plan(String thinking, @NotNull List<String> questions) {}

    /** EXTRACT: only the facts new in this chunk, each with the words of the chunk that show it. */
    record Extracted(@NotNull List<@Valid NewFact> facts) {

        record NewFact(@NotBlank String fact, String quote) {}
    }

    /** INFER: new conclusions, each naming the memory facts it follows from. */
    record Inferred(@NotNull List<@Valid Inference> inferred) {

        record Inference(
                @NotBlank String fact,
                @NotNull @Size(min = 1) List<String> basis) {}
    }

    /** REFINE: the complete updated list of open questions. */
    record Refined(@NotNull List<String> questions) {}

    /** The manager's answer and the ids of the facts it rests on. */
    record Managed(
            @NotNull String answer,
            String rationale,
            List<String> citedFacts,
            @NotNull @DecimalMin("0") @DecimalMax("1") Double confidence,
            @PositiveOrZero Integer choice) {}
}
