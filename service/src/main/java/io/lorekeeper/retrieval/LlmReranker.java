package io.lorekeeper.retrieval;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.lorekeeper.llm.LlmSession;
import io.lorekeeper.llm.NumberedMarkup;
import io.lorekeeper.llm.PromptMarkup;
import io.lorekeeper.llm.Role;
import io.lorekeeper.platform.Failures;

/**
 * A listwise rerank by the configured model: one call shows it the first-stage passages, numbered, and
 * asks for their numbers in order of use for the question. The order becomes scores (the first gets the
 * most); a passage the reply leaves out ranks after every listed one, in its first-stage order, and a
 * number that names no passage, or one listed twice, is dropped and counted. A call that fails leaves
 * the first-stage order, and the record says why.
 */
final class LlmReranker {

    static final String TEMPLATE = "retrieval/rerank";
    static final String BY = "llm";

    private final int maxChars;

    LlmReranker(int maxChars) {
        this.maxChars = maxChars;
    }

    /** The model's reply: passage numbers, most useful first. */
    record Ranking(List<Integer> ranking) {}

    /** One score per passage (higher first), or null when the call failed; the record goes to the scope. */
    double[] scores(String query, List<String> passages, RerankScope scope) {
        LlmSession llm = scope.llm();
        int callsBefore = llm.calls().size();
        Ranking reply;
        try {
            reply = llm.structured(
                    Role.RESEARCHER,
                    TEMPLATE,
                    Map.of("question", query, "passages", numbered(passages)),
                    Ranking.class);
        } catch (RuntimeException failed) {
            scope.report()
                    .accept(new RerankScope.Reranked(
                            BY,
                            query,
                            passages.size(),
                            List.of(),
                            0,
                            0,
                            0,
                            "the rerank call failed: " + Failures.describe(failed)));
            return null;
        }
        Set<Integer> order = new LinkedHashSet<>();
        int dropped = 0;
        for (Integer n : reply == null || reply.ranking() == null ? List.<Integer>of() : reply.ranking()) {
            if (n == null || n < 1 || n > passages.size() || !order.add(n - 1)) {
                dropped++;
            }
        }
        double[] scores = new double[passages.size()];
        Arrays.fill(scores, Double.NaN);
        int rank = 0;
        for (int index : order) {
            scores[index] = passages.size() - rank++;
        }
        long prompt = 0;
        long completion = 0;
        List<LlmSession.CallUsage> calls = llm.calls();
        // other steps of the question may call the model meanwhile, on other threads: count this template's
        for (LlmSession.CallUsage call : calls.subList(Math.min(callsBefore, calls.size()), calls.size())) {
            if (!call.template().equals(TEMPLATE)) {
                continue;
            }
            prompt += call.promptTokens();
            completion += call.completionTokens();
        }
        scope.report()
                .accept(new RerankScope.Reranked(
                        BY, query, passages.size(), new ArrayList<>(order), prompt, completion, dropped, null));
        return scores;
    }

    private PromptMarkup numbered(List<String> passages) {
        return NumberedMarkup.render(
                "passage",
                passages.stream()
                        .map(text ->
                                NumberedMarkup.Block.of(text.length() > maxChars ? text.substring(0, maxChars) : text))
                        .toList(),
                NumberedMarkup.Spacing.LINE_BREAK);
    }
}
