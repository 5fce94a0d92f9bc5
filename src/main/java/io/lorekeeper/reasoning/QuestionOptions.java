package io.lorekeeper.reasoning;

import java.util.Map;
import java.util.Set;

import io.lorekeeper.platform.ApiProblem;

/**
 * The free-form {@code options} object of a question, read with defaults and bounds. Strategies
 * read hyperparameters from here so that every paper default can be overridden per request.
 */
public final class QuestionOptions {

    private final Map<String, Object> values;

    public QuestionOptions(Map<String, Object> values) {
        this.values = values == null ? Map.of() : Map.copyOf(values);
    }

    public static QuestionOptions none() {
        return new QuestionOptions(Map.of());
    }

    public Map<String, Object> asMap() {
        return values;
    }

    public int intValue(String name, int defaultValue, int min, int max) {
        Object value = values.get(name);
        if (value == null) {
            return defaultValue;
        }
        if (!(value instanceof Number number) || number.doubleValue() != Math.rint(number.doubleValue())) {
            throw ApiProblem.invalid("options." + name, name + " must be an integer");
        }
        long n = number.longValue();
        if (n < min || n > max) {
            throw ApiProblem.invalid("options." + name, name + " must be between " + min + " and " + max);
        }
        return (int) n;
    }

    public double doubleValue(String name, double defaultValue, double min, double max) {
        Object value = values.get(name);
        if (value == null) {
            return defaultValue;
        }
        if (!(value instanceof Number number)) {
            throw ApiProblem.invalid("options." + name, name + " must be a number");
        }
        double d = number.doubleValue();
        if (d < min || d > max || Double.isNaN(d)) {
            throw ApiProblem.invalid("options." + name, name + " must be between " + min + " and " + max);
        }
        return d;
    }

    public boolean booleanValue(String name, boolean defaultValue) {
        Object value = values.get(name);
        if (value == null) {
            return defaultValue;
        }
        if (!(value instanceof Boolean b)) {
            throw ApiProblem.invalid("options." + name, name + " must be true or false");
        }
        return b;
    }

    /** Rejects options no one reads, so that a typo ("maxDeph") is an error rather than a silent default. */
    public void allowOnly(Set<String> known) {
        for (String name : values.keySet()) {
            if (!known.contains(name)) {
                throw ApiProblem.invalid("options." + name, "unknown option '" + name + "'; this strategy accepts " + known);
            }
        }
    }
}
