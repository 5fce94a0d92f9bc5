package io.lorekeeper.memory;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.stereotype.Component;

/**
 * The models this replica can embed with: the configured one, loaded at start, and the
 * {@linkplain EmbeddingAlternatives alternatives}, each loaded when first needed (an ONNX session holds
 * its model's weights in memory, so a replica does not load models it may never use).
 */
@Component
class EmbeddingModels {

    /** A model with the prefixes it expects, under the name its vectors record. */
    record Choice(String name, EmbeddingModel model, String queryPrefix, String passagePrefix) {}

    private final Choice configured;
    private final Map<String, EmbeddingAlternatives.Alternative> alternatives;
    private final int threads;
    private final Map<String, Choice> loaded = new ConcurrentHashMap<>();

    @org.springframework.beans.factory.annotation.Autowired
    EmbeddingModels(
            EmbeddingModel model,
            EmbeddingSettings settings,
            EmbeddingModelSettings modelSettings,
            EmbeddingEndpointSettings endpoint,
            EmbeddingAlternatives alternatives) {
        this(
                new Choice(
                        endpoint.enabled()
                                ? endpoint.identity()
                                : modelSettings.files().name(),
                        model,
                        settings.queryPrefix(),
                        modelSettings.passagePrefix()),
                alternatives.alternatives(),
                settings.effectiveThreads());
    }

    EmbeddingModels(Choice configured, Map<String, EmbeddingAlternatives.Alternative> alternatives, int threads) {
        this.configured = configured;
        this.alternatives = new LinkedHashMap<>(alternatives);
        this.threads = threads;
        loaded.put(configured.name(), configured);
    }

    Choice configured() {
        return configured;
    }

    /** The model of that name, loaded if it was not; empty when this replica does not know it. */
    Optional<Choice> named(String name) {
        Choice known = loaded.get(name);
        if (known != null) {
            return Optional.of(known);
        }
        EmbeddingAlternatives.Alternative alternative = alternatives.get(name);
        if (alternative == null) {
            return Optional.empty();
        }
        return Optional.of(loaded.computeIfAbsent(name, n -> load(n, alternative)));
    }

    /** Every name this replica can embed with, the configured one first. */
    java.util.List<String> names() {
        java.util.List<String> names = new java.util.ArrayList<>();
        names.add(configured.name());
        alternatives.keySet().stream().filter(n -> !n.equals(configured.name())).forEach(names::add);
        return names;
    }

    private Choice load(String name, EmbeddingAlternatives.Alternative alternative) {
        if (alternative.remote()) {
            return new Choice(
                    name,
                    new EndpointEmbeddingModel(alternative.endpoint()),
                    alternative.queryPrefix(),
                    alternative.passagePrefix());
        }
        EmbeddingModelSettings files = new EmbeddingModelSettings(
                alternative.location(), name, alternative.pooling(), alternative.passagePrefix());
        return new Choice(
                name,
                new OnnxEmbeddingModel(files.files(), files.poolingMode(), threads),
                alternative.queryPrefix(),
                alternative.passagePrefix());
    }
}
