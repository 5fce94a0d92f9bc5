package io.lorekeeper.llm;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

import io.lorekeeper.llm.LlmSettings.ProfileOverrides;

/** Resolves roles to profiles, filling every profile's gaps from the default one. */
@Component
class ModelProfiles {

    static final String DEFAULT = "default";

    private final Map<String, ModelProfile> byName = new LinkedHashMap<>();
    private final Map<String, String> roles;
    /** Null: every profile samples at its own temperature. */
    private final Double temperature;

    @Autowired
    ModelProfiles(LlmSettings settings) {
        ModelProfile base = new ModelProfile(
                DEFAULT,
                blankToNull(settings.baseUrl()),
                blankToNull(settings.apiKey()),
                settings.model(),
                settings.temperature(),
                settings.maxOutputTokens() == null ? 0 : settings.maxOutputTokens(),
                settings.contextWindow(),
                settings.structuredOutput(),
                settings.maxConcurrency(),
                settings.tokensPerMinute(),
                settings.timeout(),
                settings.reasoningModel());
        byName.put(DEFAULT, base);
        settings.profiles().forEach((name, o) -> byName.put(name, merge(name, base, o)));
        for (Map.Entry<String, String> role : settings.roles().entrySet()) {
            if (!byName.containsKey(role.getValue())) {
                throw new IllegalStateException("lorekeeper.llm.roles." + role.getKey() + " names an unknown profile '"
                        + role.getValue() + "'; profiles are " + byName.keySet());
            }
        }
        this.roles = settings.roles();
        this.temperature = null;
    }

    private ModelProfiles(ModelProfiles base, double temperature) {
        this.byName.putAll(base.byName);
        this.roles = base.roles;
        this.temperature = temperature;
    }

    /** The role's profile; one with no output limit of its own gets the role's default limit. */
    ModelProfile forRole(Role role) {
        ModelProfile profile = byName.get(roles.getOrDefault(role.key(), DEFAULT));
        ModelProfile limited = profile.maxOutputTokens() > 0
                ? profile
                : profile.withMaxOutputTokens(OutputLimits.forRole(role, profile.reasoningModel()));
        return temperature == null ? limited : limited.withTemperature(temperature);
    }

    /** The same routing with every profile sampling at {@code temperature}. */
    ModelProfiles atTemperature(double newTemperature) {
        return new ModelProfiles(this, newTemperature);
    }

    java.util.Collection<ModelProfile> all() {
        return byName.values();
    }

    private static ModelProfile merge(String name, ModelProfile base, ProfileOverrides o) {
        return new ModelProfile(
                name,
                o.baseUrl() != null ? blankToNull(o.baseUrl()) : base.baseUrl(),
                o.apiKey() != null ? blankToNull(o.apiKey()) : base.apiKey(),
                o.model() != null ? o.model() : base.model(),
                o.temperature() != null ? o.temperature() : base.temperature(),
                o.maxOutputTokens() != null ? o.maxOutputTokens() : base.maxOutputTokens(),
                o.contextWindow() != null ? o.contextWindow() : base.contextWindow(),
                o.structuredOutput() != null ? o.structuredOutput() : base.structuredOutput(),
                o.maxConcurrency() != null ? o.maxConcurrency() : base.maxConcurrency(),
                o.tokensPerMinute() != null ? o.tokensPerMinute() : base.tokensPerMinute(),
                o.timeout() != null ? o.timeout() : base.timeout(),
                o.reasoningModel() != null ? o.reasoningModel() : base.reasoningModel());
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
