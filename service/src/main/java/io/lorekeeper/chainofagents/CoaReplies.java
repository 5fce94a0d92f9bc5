package io.lorekeeper.chainofagents;

import java.util.List;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.PositiveOrZero;

/** What the Chain of Agents prompts return. */
final class CoaReplies {

    private CoaReplies() {}

    /** A worker's rewritten summary, handed to the next worker. */
    record Summary(@NotNull String summary) {}

    /**
     * The manager's answer. {@code quotes} are words of the text that the summary carried in
     * quotation marks; only those found verbatim in the documents become citations.
     */
    record Answer(
            @NotNull String answer,
            List<String> quotes,
            @NotNull @DecimalMin("0") @DecimalMax("1") Double confidence,
            @PositiveOrZero Integer choice) {}
}
