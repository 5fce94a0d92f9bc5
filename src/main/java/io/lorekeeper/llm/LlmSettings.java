package io.lorekeeper.llm;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Where the OpenAI-compatible endpoint is. Setting only an API key (OpenAI) or only a base URL
 * (a local Ollama, vLLM or llama.cpp server) is enough to count as configured.
 *
 * @param baseUrl e.g. {@code http://localhost:11434/v1}; blank means api.openai.com when a key is set
 * @param apiKey  never logged; blank for local servers that need none
 * @param model   the default chat model
 */
@ConfigurationProperties("lorekeeper.llm")
public record LlmSettings(String baseUrl, String apiKey, String model) {

    public boolean isConfigured() {
        return hasText(baseUrl) || hasText(apiKey);
    }

    private static boolean hasText(String s) {
        return s != null && !s.isBlank();
    }

    @Override
    public String toString() {
        return "LlmSettings[baseUrl=" + baseUrl + ", apiKey=" + (hasText(apiKey) ? "****" : "") + ", model=" + model + "]";
    }
}
