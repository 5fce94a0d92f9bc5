package io.lorekeeper.memory;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * An OpenAI-compatible {@code /v1/embeddings} endpoint (OpenAI, Ollama, vLLM, Text Embeddings
 * Inference) in place of the in-process model, under {@code lorekeeper.embedding.endpoint}.
 *
 * @param baseUrl    the API's base URL ({@code https://api.openai.com/v1}, {@code http://ollama:11434/v1});
 *                   empty: the in-process model
 * @param apiKey     sent as a bearer token (local servers accept any)
 * @param model      the model to ask for; the stored vectors record it as {@code endpoint:<model>}
 * @param dimensions the dimension asked for and expected back (the vector columns take it on an empty database)
 * @param timeout    one request's limit
 * @param maxRetries tries after a 429, 5xx or broken connection, with the client's backoff
 * @param askDimensions send {@code dimensions} with each request: OpenAI's {@code text-embedding-3-*}
 *                   shorten their vectors to it; servers of fixed-size models may reject the field
 */
@ConfigurationProperties("lorekeeper.embedding.endpoint")
record EmbeddingEndpointSettings(
        @DefaultValue("") String baseUrl,
        @DefaultValue("") String apiKey,
        @DefaultValue("") String model,
        @DefaultValue("384") int dimensions,
        @DefaultValue("60s") Duration timeout,
        @DefaultValue("3") int maxRetries,
        @DefaultValue("false") boolean askDimensions) {

    boolean enabled() {
        return baseUrl != null && !baseUrl.isBlank();
    }

    String identity() {
        return "endpoint:" + model;
    }
}
