package io.lorekeeper.strategy;

import com.fasterxml.jackson.annotation.JsonProperty;

import io.swagger.v3.oas.annotations.media.Schema;

/**
 * What kind of answer a question got, so that a caller can show it for what it is: a short answer
 * quoted from the source, the passages most likely to hold the answer when no short answer was
 * certain enough to give, or text a model wrote.
 */
@Schema(
        name = "AnswerKind",
        description = "`span`: a short answer quoted verbatim from the source; `passage`: no short answer was"
                + " certain enough, the answer is the best passages (each cited) to read; `generated`: written by a"
                + " model from the cited evidence")
public enum AnswerKind {
    @JsonProperty("span")
    SPAN,
    @JsonProperty("passage")
    PASSAGE,
    @JsonProperty("generated")
    GENERATED;

    /** The kind an answer of this mode is unless its strategy says otherwise. */
    static AnswerKind ofMode(String mode) {
        return StrategyResult.GENERATED.equals(mode) ? GENERATED : SPAN;
    }
}
