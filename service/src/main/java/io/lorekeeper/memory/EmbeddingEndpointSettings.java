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
 * @param dimensions the dimension asked for and expected back (every vector column holds 384)
 * @param timeout    one request's limit
 * @param maxRetries tries after a 429, 5xx or broken connection, with the client's backoff
 */
@ConfigurationProperties("lorekeeper.embedding.endpoint")
record EmbeddingEndpointSettings(
        @DefaultValue("") String baseUrl,
        @DefaultValue("") String apiKey,
        @DefaultValue("") String model,
        @DefaultValue("384") int dimensions,
        @DefaultValue("60s") Duration timeout,
        @DefaultValue("3") int maxRetries) {

    boolean enabled() {
        return baseUrl != null && !baseUrl.isBlank();
    }

    String identity() {
        return "endpoint:" + model;
    }
}
