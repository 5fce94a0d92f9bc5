package io.lorekeeper.question;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonTypeName;

import io.lorekeeper.strategy.Citation;
import io.lorekeeper.strategy.TraceEvent;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * The answer as it is written: its text while the model streams it, then the answer that counts. Only
 * strategies' answering calls to an endpoint that streams record these.
 */
public sealed interface AnswerEvent extends TraceEvent {

    /**
     * More of the answer's text, as the model wrote it. A draft's deltas share a {@code stream}
     * number; a later number (a repaired reply, a last resort, another try) starts a new draft, so a
     * client shows the deltas of the highest number. The concatenated text of one stream is the
     * model's answer as it wrote it, before any check: the {@code answer.final} event is what counts.
     */
    @JsonTypeName("answer.delta")
    @Schema(name = "AnswerDelta")
    record Delta(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "the draft's number, from 1")
            int stream,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "the text that follows the draft so far")
            String text)
            implements AnswerEvent {}

    /**
     * The answer after the strategy finished and its citations were checked, recorded when a draft was
     * streamed: it replaces the draft. {@code draftChanged} says whether it differs from the last draft
     * (another answer than the one streamed, or citations dropped because they do not quote their
     * document), and {@code change} says how.
     */
    @JsonTypeName("answer.final")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "AnswerFinal")
    record Final(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            String answer,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            List<Citation> citations,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "the number of the last draft streamed")
            int streams,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            boolean draftChanged,

            String change)
            implements AnswerEvent {}
}
