package io.lorekeeper.retrieval;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The reranking stage, under {@code lorekeeper.search.rerank}: off unless an endpoint or a model
 * folder is set (or, for questions and searches where an LLM is configured, {@code llm}).
 *
 * @param url         the endpoint that scores passages against a query: a Text Embeddings Inference
 *                    server's {@code /rerank}, or a {@code /v1/rerank} (Cohere, Jina, vLLM); empty: off
 * @param format      {@code tei} ({@code texts}, answers {@code [{index, score}]}) or {@code cohere}
 *                    ({@code documents}, {@code model}, {@code top_n}, answers {@code {results: [{index,
 *                    relevance_score}]}}; Jina and vLLM speak it too)
 * @param model       the model to name in a {@code cohere} request
 * @param modelLocation a folder holding a cross-encoder exported to ONNX (one {@code .onnx} file and its
 *                    {@code tokenizer.json}), run in-process; exclusive with {@code url}
 * @param maxTokens   the cross-encoder's window in word pieces: query and passage together, the passage cut
 * @param apiKey      sent as a bearer token when set
 * @param candidates  first-stage hits reranked per search (more cost, more chance the answer is among them)
 * @param batchSize   passages per request (TEI refuses more than its {@code --max-client-batch-size}, 32 by default)
 * @param maxChars    the most characters of one passage sent
 * @param timeout     one request's limit
 * @param maxAttempts tries of a request that fails with 429, 5xx or a broken connection
 * @param concurrency requests in flight at once from this replica
 * @param llm         with no endpoint or model set: the configured LLM reranks the hits of questions' searches
 *                    (one listwise call per search, on the question's budget, recorded in its trace) and of the
 *                    search API's (one call per request, in the tenant's usage)
 * @param llmCandidates first-stage hits the LLM is shown per search
 */
@ConfigurationProperties("lorekeeper.search.rerank")
record RerankSettings(
        @DefaultValue("") String url,
        @DefaultValue("") String modelLocation,
        @DefaultValue("512") int maxTokens,
        @DefaultValue("tei") String format,
        @DefaultValue("") String model,
        @DefaultValue("") String apiKey,
        @DefaultValue("30") int candidates,
        @DefaultValue("32") int batchSize,
        @DefaultValue("2000") int maxChars,
        @DefaultValue("10s") Duration timeout,
        @DefaultValue("3") int maxAttempts,
        @DefaultValue("4") int concurrency,
        @DefaultValue("false") boolean llm,
        @DefaultValue("20") int llmCandidates) {

    RerankSettings {
        if (set(url) && set(modelLocation)) {
            throw new IllegalStateException("lorekeeper.search.rerank: set url (an endpoint) or model-location (an"
                    + " in-process cross-encoder), not both");
        }
    }

    boolean enabled() {
        return set(url) || set(modelLocation);
    }

    boolean inProcess() {
        return set(modelLocation);
    }

    private static boolean set(String value) {
        return value != null && !value.isBlank();
    }
}
