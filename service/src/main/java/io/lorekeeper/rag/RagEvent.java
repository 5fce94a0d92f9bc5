package io.lorekeeper.rag;

import java.util.List;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonTypeName;

import io.lorekeeper.strategy.TraceEvent;
import io.swagger.v3.oas.annotations.media.Schema;

/** What the {@code rag} baseline records: its one retrieval and its one answer. */
sealed interface RagEvent extends TraceEvent {

    /**
     * The passages the answer call is shown: the best hybrid hits in rank order while they fit the
     * token budget. A wrong answer over passages that lack the evidence is a retrieval miss.
     *
     * @param k             hits asked for
     * @param tokens        the passages' token budget
     * @param contextTokens the tokens of the passages as rendered in the prompt
     */
    @JsonTypeName("rag.retrieve")
    @Schema(name = "RagRetrieve")
    record Retrieve(String query, String mode, int k, int tokens, List<Shown> passages, int contextTokens)
            implements RagEvent {}

    /** One passage shown to the model (a chunk, widened by its neighbours where asked). */
    @Schema(name = "RagPassage")
    record Shown(UUID documentId, int chunk, int start, int end, List<String> turnIds) {}

    /**
     * The model's answer, with where each quote it gave as evidence was found: {@code found} false
     * means the quote matched no passage shown, so it cites nothing.
     */
    @JsonTypeName("rag.answer")
    @Schema(name = "RagAnswer")
    record Answer(String answer, Double confidence, List<Located> evidence) implements RagEvent {}

    /** One quote of the reply: the passage it named and whether it was found in the passages shown. */
    @Schema(name = "RagEvidence")
    record Located(Integer passage, boolean found) {}
}
