package io.lorekeeper.llm;

import java.time.Duration;

import io.lorekeeper.llm.LlmSettings.StructuredOutputMode;

/**
 * A fully resolved model profile: where to call, which model, with which limits.
 *
 * @param maxOutputTokens the reply limit; 0 until resolved for a role ({@link OutputLimits})
 */
public record ModelProfile(
        String name,
        String baseUrl,
        String apiKey,
        String model,
        double temperature,
        int maxOutputTokens,
        int contextWindow,
        StructuredOutputMode structuredOutput,
        int maxConcurrency,
        int tokensPerMinute,
        Duration timeout,
        boolean reasoningModel) {

    /** The same profile sampling at another temperature (a per-call override; limits stay the profile's). */
    public ModelProfile withTemperature(double newTemperature) {
        return with(newTemperature, maxOutputTokens);
    }

    ModelProfile withMaxOutputTokens(int limit) {
        return with(temperature, limit);
    }

    /** This profile with the two values a call may vary; every other component stays. */
    private ModelProfile with(double temperature, int maxOutputTokens) {
        return new ModelProfile(
                name,
                baseUrl,
                apiKey,
                model,
                temperature,
                maxOutputTokens,
                contextWindow,
                structuredOutput,
                maxConcurrency,
                tokensPerMinute,
                timeout,
                reasoningModel);
    }

    @Override
    public String toString() {
        return "ModelProfile[" + name + ", " + model + " at " + (baseUrl == null ? "api.openai.com" : baseUrl) + "]";
    }
}
