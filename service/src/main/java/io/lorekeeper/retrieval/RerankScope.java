package io.lorekeeper.retrieval;

import java.util.List;
import java.util.function.Consumer;

import io.lorekeeper.llm.LlmSession;

/**
 * Where a model rerank is made and reported: the session it is counted in (a question's, on its
 * budget) and where its record goes (the question's trace). A search without one is not reranked by a
 * model.
 */
public record RerankScope(LlmSession llm, Consumer<Reranked> report) {

    /**
     * One listwise rerank by the model: how many first-stage hits it was shown, the order it gave them
     * (indexes into the first-stage ranking, best first), what it cost, and what was left out of its reply.
     *
     * @param skipped why the first-stage order stood (the call failed or the budget ran out); null when reranked
     */
    public record Reranked(
            String query,
            int candidates,
            List<Integer> order,
            long promptTokens,
            long completionTokens,
            int dropped,
            String skipped) {}
}
