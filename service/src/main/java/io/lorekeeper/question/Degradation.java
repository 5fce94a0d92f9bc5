package io.lorekeeper.question;

import java.time.Instant;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.lorekeeper.document.StageStatus;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * One entry of an answer's {@code degraded} list: either an optional memory the strategy ran without
 * (the fields of a {@link MemoryGap}), or the strategy's own answer replaced by the model-free
 * fallback's ({@code strategy}, {@code fallback}, {@code reason}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(
        name = "Degradation",
        description = "What the answer was made without: a missing optional memory (documentId, stage, state,"
                + " reason) or, when the strategy stopped without an answer or `auto` found no model, the"
                + " model-free fallback that answered (strategy, fallback, reason)")
public record Degradation(
        UUID documentId,
        String stage,
        StageStatus state,
        String reason,
        Instant retryAt,
        String why,

        @Schema(description = "Fallback only: the strategy that stopped")
        String strategy,

        @Schema(description = "Fallback only: the strategy that answered instead")
        String fallback) {

    static Degradation missing(MemoryGap gap) {
        return new Degradation(
                gap.documentId(), gap.stage(), gap.state(), gap.reason(), gap.retryAt(), gap.why(), null, null);
    }

    static Degradation fallback(String strategy, String fallback, String reason) {
        return new Degradation(null, null, null, reason, null, null, strategy, fallback);
    }
}
