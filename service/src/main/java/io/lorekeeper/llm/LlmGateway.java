package io.lorekeeper.llm;

import jakarta.validation.Validator;

import org.springframework.stereotype.Service;

/** The llm module's API: opens {@link LlmSession}s and says whether any model is configured. */
@Service
public class LlmGateway {

    private final LlmSettings settings;
    private final ModelProfiles profiles;
    private final PromptTemplates templates;
    private final ChatCaller caller;
    private final StructuredOutput output;

    private final EndpointProbe probe;

    LlmGateway(
            LlmSettings settings,
            ModelProfiles profiles,
            PromptTemplates templates,
            ChatCaller caller,
            Validator validator,
            EndpointProbe probe) {
        this.probe = probe;
        this.settings = settings;
        this.profiles = profiles;
        this.templates = templates;
        this.caller = caller;
        this.output = new StructuredOutput(validator);
    }

    public boolean isConfigured() {
        return settings.isConfigured();
    }

    /** The context window of the model a role is routed to, and the part its replies keep free, for strategies that size prompts to it. */
    public ContextLimit contextLimit(Role role) {
        ModelProfile profile = profiles.forRole(role);
        return new ContextLimit(profile.name(), profile.contextWindow(), profile.maxOutputTokens());
    }

    /**
     * The reply limit a call of the role gets when it needs {@code wanted} tokens and asks for them
     * ({@link LlmSession#withOutputLimit}): the profile's own {@code max-output-tokens} where it sets one,
     * otherwise the larger of {@code wanted} and the role's default.
     */
    public int outputLimit(Role role, int wanted) {
        int current = profiles.forRole(role).maxOutputTokens();
        return profiles.setsOutputLimit(role) ? current : Math.max(current, wanted);
    }

    /**
     * Whether the model of each role can be used now: one is configured and the endpoint of the role's
     * profile is not known to be down (by the probe at start or a run of failed calls since).
     * Strategies that need a model are routed around it otherwise.
     */
    public boolean isReachable(Role role, Role... more) {
        if (!settings.isConfigured()) {
            return false;
        }
        var results = probe.results();
        return java.util.stream.Stream.concat(java.util.stream.Stream.of(role), java.util.Arrays.stream(more))
                .map(r -> results.get(profiles.forRole(r).name()))
                .noneMatch(r -> r != null && Boolean.FALSE.equals(r.reachable()));
    }

    /**
     * What is known about the model endpoint: configured or not, and whether it answered the probe
     * made at start or the calls made since (null until either).
     */
    public record EndpointStatus(boolean configured, Boolean reachable, String detail) {}

    public EndpointStatus endpointStatus() {
        if (!settings.isConfigured()) {
            return new EndpointStatus(false, null, "no LLM configured: set OPENAI_API_KEY or LOREKEEPER_LLM_BASE_URL");
        }
        var results = probe.results();
        if (results.isEmpty()) {
            return new EndpointStatus(true, null, "not probed yet");
        }
        boolean all = results.values().stream().allMatch(r -> Boolean.TRUE.equals(r.reachable()));
        String detail = results.entrySet().stream()
                .map(e -> e.getKey() + " (" + e.getValue().baseUrl() + "): "
                        + e.getValue().detail())
                .collect(java.util.stream.Collectors.joining("; "));
        return new EndpointStatus(true, all, detail);
    }

    public LlmSession open(CallScope scope, Budget budget) {
        return new LlmSession(scope, budget, profiles, templates, caller, output);
    }

    /** The per-question budget configured as default, or overridden by a question's {@code options.budget}. */
    public Budget questionBudget(Integer maxCalls, Long maxTokens, Integer maxSeconds) {
        LlmSettings.Budget defaults = settings.budget();
        return new Budget(
                maxCalls != null ? maxCalls : defaults.maxCalls(),
                maxTokens != null ? maxTokens : defaults.maxTokens(),
                maxSeconds != null ? java.time.Duration.ofSeconds(maxSeconds) : defaults.maxWallTime());
    }
}
