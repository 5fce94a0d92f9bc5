package io.lorekeeper.llm;

import java.time.Duration;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * LLM configuration under {@code lorekeeper.llm}. The top-level fields are the {@code default}
 * profile; {@code profiles} adds named profiles that override any of them; {@code roles} maps a
 * role (memorizer, builder, planner, researcher, judge, answerer, critic) to a profile name. Setting only
 * an API key (OpenAI) or only a base URL (Ollama, vLLM, llama.cpp) is enough to enable everything.
 *
 * @param baseUrl        an OpenAI-compatible endpoint (Ollama, vLLM, llama.cpp); unset with a key, OpenAI's
 * @param apiKey         never logged or traced
 * @param model          the model every call of this profile names
 * @param temperature    sampling temperature; replies at 0 are cached and repeat from run to run
 * @param maxOutputTokens the reply limit; unset, each role gets one that fits what it returns ({@link OutputLimits})
 * @param contextWindow  the model's context length in tokens, prompt and reply together (128,000 for
 *                       gpt-4o-mini, the default model); strategies that read a document in large
 *                       chunks size them to fit it
 * @param structuredOutput {@code native} sends the JSON schema as the response format; {@code prompt}
 *                       describes it in the prompt and parses the reply leniently, for servers without
 *                       schema support
 * @param maxConcurrency calls of this profile in flight at once, per replica
 * @param tokensPerMinute tokens of this profile per minute, per replica; 0 for no limit
 * @param timeout        how long one HTTP call may take
 * @param reasoningModel the model is an o-series/gpt-5 style reasoning model: it takes
 *                       {@code max_completion_tokens} and no temperature
 * @param profiles       named profiles; a field a profile leaves out is the default profile's
 * @param roles          which profile each role uses (memorizer, builder, planner, researcher, judge,
 *                       answerer, critic); a role not named uses the default profile
 */
@ConfigurationProperties("lorekeeper.llm")
public record LlmSettings(
        String baseUrl,
        String apiKey,
        @DefaultValue("gpt-4o-mini") String model,
        @DefaultValue("0") double temperature,
        Integer maxOutputTokens,
        @DefaultValue("128000") int contextWindow,
        @DefaultValue("native") StructuredOutputMode structuredOutput,
        @DefaultValue("4") int maxConcurrency,
        @DefaultValue("0") int tokensPerMinute,
        @DefaultValue("120s") Duration timeout,
        @DefaultValue("false") boolean reasoningModel,
        Map<String, ProfileOverrides> profiles,
        Map<String, String> roles,
        @DefaultValue Retry retry,
        @DefaultValue Cache cache,
        @DefaultValue Budget budget) {

    public LlmSettings {
        profiles = profiles == null ? Map.of() : Map.copyOf(profiles);
        roles = roles == null ? Map.of() : Map.copyOf(roles);
    }

    /** Whether any OpenAI-compatible endpoint is configured, on the default profile or a named one. */
    public boolean isConfigured() {
        return hasText(baseUrl)
                || hasText(apiKey)
                || profiles.values().stream().anyMatch(p -> hasText(p.baseUrl()) || hasText(p.apiKey()));
    }

    static boolean hasText(String s) {
        return s != null && !s.isBlank();
    }

    @Override
    public String toString() {
        return "LlmSettings[baseUrl=" + baseUrl + ", apiKey=" + (hasText(apiKey) ? "****" : "") + ", model=" + model
                + ", profiles=" + profiles.keySet() + ", roles=" + roles + "]";
    }

    public enum StructuredOutputMode {
        /** JSON schema sent in the request (response_format json_schema). */
        NATIVE,
        /** Schema described in the prompt and the reply parsed leniently, for servers without schema support. */
        PROMPT
    }

    /** Any field left out inherits the default profile's value. */
    public record ProfileOverrides(
            String baseUrl,
            String apiKey,
            String model,
            Double temperature,
            Integer maxOutputTokens,
            Integer contextWindow,
            StructuredOutputMode structuredOutput,
            Integer maxConcurrency,
            Integer tokensPerMinute,
            Duration timeout,
            Boolean reasoningModel) {

        @Override
        public String toString() {
            return "ProfileOverrides[baseUrl=" + baseUrl + ", apiKey=" + (hasText(apiKey) ? "****" : "") + ", model="
                    + model + "]";
        }
    }

    /**
     * @param maxAttempts   calls per request, first included, on 429, 5xx and timeouts
     * @param initialBackoff first wait, doubled each attempt, with full jitter
     * @param maxBackoff    the longest wait between two attempts (a longer Retry-After is still honoured)
     * @param maxWait       the longest wait done in-process; longer Retry-After windows re-queue the job
     */
    public record Retry(
            @DefaultValue("5") int maxAttempts,
            @DefaultValue("500ms") Duration initialBackoff,
            @DefaultValue("20s") Duration maxBackoff,
            @DefaultValue("60s") Duration maxWait) {}

    /** @param enabled cache replies of temperature-0 calls, keyed by model, messages and parameters */
    public record Cache(@DefaultValue("true") boolean enabled) {}

    /**
     * Default per-question budget; a question's {@code options.budget} may lower or raise it. A
     * strategy that runs out answers with what it has, flagged {@code budgetLimited}.
     *
     * @param maxCalls    model calls a question may make
     * @param maxTokens   prompt and completion tokens a question may spend
     * @param maxWallTime how long after it starts a question may still call the model
     */
    public record Budget(
            @DefaultValue("200") int maxCalls,
            @DefaultValue("2000000") long maxTokens,
            @DefaultValue("10m") Duration maxWallTime) {}
}
