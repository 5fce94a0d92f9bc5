package io.lorekeeper.llm;

import org.springframework.stereotype.Service;

import jakarta.validation.Validator;

/** The llm module's API: opens {@link LlmSession}s and says whether any model is configured. */
@Service
public class LlmGateway {

    private final LlmSettings settings;
    private final ModelProfiles profiles;
    private final PromptTemplates templates;
    private final ChatCaller caller;
    private final StructuredOutput output;

    LlmGateway(LlmSettings settings, ModelProfiles profiles, PromptTemplates templates, ChatCaller caller, Validator validator) {
        this.settings = settings;
        this.profiles = profiles;
        this.templates = templates;
        this.caller = caller;
        this.output = new StructuredOutput(validator);
    }

    public boolean isConfigured() {
        return settings.isConfigured();
    }

    /** The context window of the model a role is routed to, for strategies that size their prompts to it. */
    public ContextLimit contextLimit(Role role) {
        ModelProfile profile = profiles.forRole(role);
        return new ContextLimit(profile.name(), profile.contextWindow(), profile.maxOutputTokens());
    }

    public LlmSession open(CallScope scope, Budget budget) {
        return new LlmSession(scope, budget, profiles, templates, caller, output);
    }

    /** The per-question budget configured as default, or overridden by a question's {@code options.budget}. */
    public Budget questionBudget(Integer maxCalls, Long maxTokens, Integer maxSeconds) {
        LlmSettings.Budget defaults = settings.budget();
        return new Budget(maxCalls != null ? maxCalls : defaults.maxCalls(), maxTokens != null ? maxTokens : defaults.maxTokens(),
                maxSeconds != null ? java.time.Duration.ofSeconds(maxSeconds) : defaults.maxWallTime());
    }
}
