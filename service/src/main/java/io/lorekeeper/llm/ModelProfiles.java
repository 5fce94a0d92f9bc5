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
    /** Reply limits raised per role for a session, where the role's profile sets no limit of its own. */
    private final Map<Role, Integer> outputFloors;

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
        this.outputFloors = Map.of();
    }

    private ModelProfiles(ModelProfiles base, Double temperature, Map<Role, Integer> outputFloors) {
        this.byName.putAll(base.byName);
        this.roles = base.roles;
        this.temperature = temperature;
        this.outputFloors = outputFloors;
    }

    /** The role's profile; one with no output limit of its own gets the role's default limit. */
    ModelProfile forRole(Role role) {
        ModelProfile profile = byName.get(roles.getOrDefault(role.key(), DEFAULT));
        ModelProfile limited = profile.maxOutputTokens() > 0
                ? profile
                : profile.withMaxOutputTokens(Math.max(
                        OutputLimits.forRole(role, profile.reasoningModel()), outputFloors.getOrDefault(role, 0)));
        return temperature == null ? limited : limited.withTemperature(temperature);
    }

    /** Whether the role's profile sets its own {@code max-output-tokens} (taken as the model's limit, never raised). */
    boolean setsOutputLimit(Role role) {
        return byName.get(roles.getOrDefault(role.key(), DEFAULT)).maxOutputTokens() > 0;
    }

    /** The same routing with every profile sampling at {@code temperature}. */
    ModelProfiles atTemperature(double newTemperature) {
        return new ModelProfiles(this, newTemperature, outputFloors);
    }

    /** The same routing with the role's default reply limit raised to at least {@code tokens}. */
    ModelProfiles withOutputFloor(Role role, int tokens) {
        Map<Role, Integer> floors = new java.util.EnumMap<>(Role.class);
        floors.putAll(outputFloors);
        floors.put(role, tokens);
        return new ModelProfiles(this, temperature, Map.copyOf(floors));
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
