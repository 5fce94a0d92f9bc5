package io.lorekeeper.strategy;

import java.util.List;

/**
 * What a strategy concludes.
 *
 * @param answer        the answer text (for multiple choice, the chosen choice)
 * @param mode          {@code extractive} when the answer is verbatim source text, {@code generated} when a model wrote it
 * @param citations     evidence spans; verified against the source before anyone sees them
 * @param confidence    in [0, 1]
 * @param choiceIndex   index of the chosen choice for multiple-choice questions, else null
 * @param budgetLimited true when the strategy stopped on its budget and this is its best answer so far
 */
public record StrategyResult(
        String answer,
        String mode,
        List<Citation> citations,
        double confidence,
        Integer choiceIndex,
        boolean budgetLimited) {

    public static final String EXTRACTIVE = "extractive";
    public static final String GENERATED = "generated";

    public StrategyResult {
        citations = List.copyOf(citations);
        if (confidence < 0 || confidence > 1 || Double.isNaN(confidence)) {
            throw new IllegalArgumentException("confidence must be within [0, 1], was " + confidence);
        }
    }

    public StrategyResult withCitations(List<Citation> verified) {
        return new StrategyResult(answer, mode, verified, confidence, choiceIndex, budgetLimited);
    }
}
