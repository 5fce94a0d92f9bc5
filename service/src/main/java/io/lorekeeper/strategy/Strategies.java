package io.lorekeeper.strategy;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.springframework.stereotype.Service;

import io.lorekeeper.llm.LlmSettings;
import io.lorekeeper.platform.ApiProblem;

/** The strategies this service offers, by name, and whether each can run with the current configuration. */
@Service
public class Strategies {

    public static final String DEFAULT = "extractive";

    private final Map<String, AnswerStrategy> byName = new TreeMap<>();
    private final LlmSettings llm;

    Strategies(List<AnswerStrategy> strategies, LlmSettings llm) {
        for (AnswerStrategy strategy : strategies) {
            if (byName.put(strategy.name(), strategy) != null) {
                throw new IllegalStateException("two strategies are named " + strategy.name());
            }
        }
        this.llm = llm;
    }

    public List<String> names() {
        return List.copyOf(byName.keySet());
    }

    public List<AnswerStrategy> all() {
        return List.copyOf(byName.values());
    }

    public boolean isAvailable(AnswerStrategy strategy) {
        return !strategy.requirements().needsLlm() || llm.isConfigured();
    }

    /** The named strategy, if it exists and can run here; otherwise a problem naming the {@code strategy} field. */
    public AnswerStrategy require(String name) {
        String wanted = name == null || name.isBlank() ? DEFAULT : name;
        AnswerStrategy strategy = byName.get(wanted);
        if (strategy == null) {
            ApiProblem problem = new ApiProblem(
                    ApiProblem.Kind.INVALID,
                    "unknown-strategy",
                    "Unknown strategy",
                    "unknown strategy '" + wanted + "'; available: " + String.join(", ", names()),
                    "strategy");
            throw problem;
        }
        if (strategy.requirements().needsLlm() && !llm.isConfigured()) {
            throw new ApiProblem(
                    ApiProblem.Kind.INVALID,
                    "llm-not-configured",
                    "No LLM configured",
                    "strategy '" + wanted + "' needs an LLM, and none is configured; set OPENAI_API_KEY or "
                            + "LOREKEEPER_LLM_BASE_URL, or use a strategy that needs none: "
                            + String.join(", ", offline()),
                    "strategy");
        }
        return strategy;
    }

    private List<String> offline() {
        return byName.values().stream()
                .filter(s -> !s.requirements().needsLlm())
                .map(AnswerStrategy::name)
                .toList();
    }
}
