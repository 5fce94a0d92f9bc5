package io.lorekeeper.retrieval;

import java.util.List;
import java.util.function.Consumer;

import io.lorekeeper.llm.LlmSession;

/**
 * Where a rerank is made and reported: the session a model rerank is counted in (a question's, on its
 * budget, or one search request's) and where the record of every rerank goes (the question's trace, the
 * search response). A search without one is not reranked by a model, and its endpoint or in-process
 * rerank is not reported.
 *
 * @param llm the session a model rerank is made in; null where none may be (no model configured)
 */
public record RerankScope(LlmSession llm, Consumer<Reranked> report) {

    /**
     * One rerank: what made it, how many first-stage hits it was shown, the order it gave them (indexes
     * into the first-stage ranking, best first), what it cost in model tokens (0 for an endpoint or an
     * in-process model), and what was left out of a model's reply.
     *
     * @param by      {@code llm}, or the reranker's name (its format and address, or {@code onnx} and the model)
     * @param skipped why the first-stage order stood (the call failed or the budget ran out); null when reranked
     */
    public record Reranked(
            String by,
            String query,
            int candidates,
            List<Integer> order,
            long promptTokens,
            long completionTokens,
            int dropped,
            String skipped) {}
}
