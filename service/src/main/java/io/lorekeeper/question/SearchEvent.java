package io.lorekeeper.question;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonTypeName;

import io.lorekeeper.retrieval.RerankScope;
import io.lorekeeper.strategy.TraceEvent;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * What the search layer did for a question beyond the strategy's own steps: a rerank of a search's hits
 * (by the model, an endpoint or an in-process cross-encoder). The family lives here, as {@link LlmEvent} does, because retrieval may not depend on
 * the strategy SPI that declares {@link TraceEvent}.
 */
public sealed interface SearchEvent extends TraceEvent {

    /** A reranker ordered a search's first-stage hits (or failed to, and the first-stage order stood). */
    @JsonTypeName("search.reranked")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "SearchReranked")
    record Reranked(
            @Schema(description = "What reranked: `llm`, or the endpoint's format and address, or `onnx` and the model")
            String by,

            String query,

            @Schema(description = "First-stage hits the reranker was shown")
            int candidates,

            @Schema(description = "The reranker's order: indexes into the first-stage ranking, best first")
            List<Integer> order,

            long promptTokens,

            long completionTokens,

            @Schema(description = "Numbers in the reply that named no hit, or named one twice")
            int dropped,

            @Schema(description = "Why the first-stage order stood, when it did")
            String skipped)
            implements SearchEvent {}

    static SearchEvent of(RerankScope.Reranked r) {
        return new Reranked(
                r.by(),
                r.query(),
                r.candidates(),
                r.order(),
                r.promptTokens(),
                r.completionTokens(),
                r.dropped(),
                r.skipped());
    }
}
