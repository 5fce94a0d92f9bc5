package io.lorekeeper.strategy;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import io.lorekeeper.platform.ApiProblem;

/**
 * The free-form {@code options} object of a question, read with defaults and bounds. Strategies
 * read hyperparameters from here so that every paper default can be overridden per request; a bad
 * value is a problem naming its field ({@code options.k}, {@code options.budget.maxCalls}).
 */
public final class QuestionOptions {

    /** Options every strategy accepts: the question's LLM budget. */
    public static final String BUDGET = "budget";

    /**
     * Options every strategy accepts: {@code abstain} (default false) lets the final answer say that
     * the documents do not hold the answer, where the papers' prompts always answer from what they
     * have; {@code buildMemories} (default true) lets a question start building an on-demand memory
     * its strategy needs, where false refuses it at once.
     */
    public static final String ABSTAIN = "abstain";

    public static final String BUILD_MEMORIES = "buildMemories";

    private static final Set<String> EVERY_STRATEGY = Set.of(BUDGET, ABSTAIN, BUILD_MEMORIES);

    private final Map<String, Object> values;
    private final String path;

    public QuestionOptions(Map<String, Object> values) {
        this(values, "options");
    }

    private QuestionOptions(Map<String, Object> values, String path) {
        this.path = path;
        if (values != null) {
            // An explicit null is refused rather than read as "absent": a client sending
            // {"k": null} meant something, and the default it would silently get is not that.
            values.forEach((name, value) -> {
                if (value == null) {
                    throw ApiProblem.invalid(field(name), name + " must not be null; leave it out for its default");
                }
            });
        }
        this.values = values == null ? Map.of() : Map.copyOf(values);
    }

    public static QuestionOptions none() {
        return new QuestionOptions(Map.of());
    }

    public Map<String, Object> asMap() {
        return values;
    }

    public boolean has(String name) {
        return values.containsKey(name);
    }

    public int intValue(String name, int defaultValue, int min, int max) {
        Long n = longValue(name, min, max);
        return n == null ? defaultValue : n.intValue();
    }

    /** An integer option, or null when absent. */
    public Long longValue(String name, long min, long max) {
        Object value = values.get(name);
        if (value == null) {
            return null;
        }
        if (!(value instanceof Number number) || number.doubleValue() != Math.rint(number.doubleValue())) {
            throw ApiProblem.invalid(field(name), name + " must be an integer");
        }
        long n = number.longValue();
        if (n < min || n > max) {
            throw ApiProblem.invalid(field(name), name + " must be between " + min + " and " + max);
        }
        return n;
    }

    public double doubleValue(String name, double defaultValue, double min, double max) {
        Object value = values.get(name);
        if (value == null) {
            return defaultValue;
        }
        if (!(value instanceof Number number)) {
            throw ApiProblem.invalid(field(name), name + " must be a number");
        }
        double d = number.doubleValue();
        if (d < min || d > max || Double.isNaN(d)) {
            throw ApiProblem.invalid(field(name), name + " must be between " + min + " and " + max);
        }
        return d;
    }

    public boolean booleanValue(String name, boolean defaultValue) {
        Object value = values.get(name);
        if (value == null) {
            return defaultValue;
        }
        if (!(value instanceof Boolean b)) {
            throw ApiProblem.invalid(field(name), name + " must be true or false");
        }
        return b;
    }

    public String stringValue(String name, String defaultValue, Set<String> allowed) {
        Object value = values.get(name);
        if (value == null) {
            return defaultValue;
        }
        if (!(value instanceof String s) || (!allowed.isEmpty() && !allowed.contains(s))) {
            throw ApiProblem.invalid(field(name), name + " must be one of " + allowed);
        }
        return s;
    }

    /** A list of strings, each one of {@code allowed}; {@code defaultValue} when absent. */
    public java.util.List<String> stringList(String name, java.util.List<String> defaultValue, Set<String> allowed) {
        Object value = values.get(name);
        if (value == null) {
            return defaultValue;
        }
        if (!(value instanceof java.util.List<?> list)
                || list.isEmpty()
                || !list.stream().allMatch(v -> v instanceof String s && allowed.contains(s))) {
            throw ApiProblem.invalid(field(name), name + " must be a non-empty list of " + allowed);
        }
        return list.stream().map(String.class::cast).distinct().toList();
    }

    /** A nested options object, e.g. {@code budget}; empty when absent. */
    public QuestionOptions nested(String name) {
        Object value = values.get(name);
        if (value == null) {
            return new QuestionOptions(Map.of(), field(name));
        }
        if (!(value instanceof Map<?, ?> map)) {
            throw ApiProblem.invalid(field(name), name + " must be an object");
        }
        Map<String, Object> copy = new HashMap<>();
        map.forEach((k, v) -> copy.put(String.valueOf(k), v));
        return new QuestionOptions(copy, field(name));
    }

    /**
     * Rejects options no one reads, so that a typo ("maxDeph") is an error rather than a silent
     * default. At the top level, {@value #BUDGET}, {@value #ABSTAIN} and {@value #BUILD_MEMORIES} are
     * always allowed.
     */
    public void allowOnly(Set<String> known) {
        for (String name : values.keySet()) {
            if (!known.contains(name) && !(EVERY_STRATEGY.contains(name) && path.equals("options"))) {
                throw ApiProblem.invalid(field(name), "unknown option '" + name + "'; accepted: " + known);
            }
        }
    }

    /** Whether the final answer may abstain ({@value #ABSTAIN}); by default it answers from what it has, as the papers do. */
    public boolean abstain() {
        return booleanValue(ABSTAIN, false);
    }

    /** Whether a question may start building an on-demand memory its strategy needs ({@value #BUILD_MEMORIES}). */
    public boolean buildMemories() {
        return booleanValue(BUILD_MEMORIES, true);
    }

    private String field(String name) {
        return path + "." + name;
    }
}
