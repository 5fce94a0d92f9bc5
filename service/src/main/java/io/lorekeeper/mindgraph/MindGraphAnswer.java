package io.lorekeeper.mindgraph;

import java.util.List;

import jakarta.validation.constraints.NotNull;

import com.fasterxml.jackson.annotation.JsonProperty;

import io.lorekeeper.llm.SchemaEnum;

/**
 * The answer stage's final output: the answer, the nodes it rests on, and a confidence of high,
 * medium or low; optionally exact quotes from passages read with lookup_source, and the chosen
 * choice of a multiple-choice question.
 */
record MindGraphAnswer(
        @NotNull String answer,
        @JsonProperty("cited_nodes") List<String> citedNodes,
        @SchemaEnum({"high", "medium", "low"}) String confidence,
        List<Quote> quotes,
        Integer choice) {

    /** A final answer written as prose instead of JSON: kept, citing nothing, with low confidence. */
    static MindGraphAnswer plainText(String text) {
        return new MindGraphAnswer(text, List.of(), "low", List.of(), null);
    }

    /** A quote copied from the passage lookup_source returned for {@code node}. */
    record Quote(@JsonProperty("node_id") String nodeId, String quote) {}

    double confidenceValue() {
        if (confidence == null) {
            return 0.5;
        }
        return switch (confidence.strip().toLowerCase(java.util.Locale.ROOT)) {
            case "high" -> 0.9;
            case "medium" -> 0.6;
            case "low" -> 0.3;
            default -> {
                try {
                    double d = Double.parseDouble(confidence.strip());
                    yield d >= 0 && d <= 1 ? d : 0.5;
                } catch (NumberFormatException e) {
                    yield 0.5;
                }
            }
        };
    }
}
