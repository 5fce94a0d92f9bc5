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
 * @param kind          a short span, the best passages, or a model's text; follows {@code mode} unless the
 *                      strategy says it answered with passages
 * @param fallback      set when another strategy answered in place of the one asked for, and why (auto without
 *                      a model); the answer's {@code degraded} list shows it. Null otherwise
 */
public record StrategyResult(
        String answer,
        String mode,
        List<Citation> citations,
        double confidence,
        Integer choiceIndex,
        boolean budgetLimited,
        AnswerKind kind,
        Fallback fallback) {

    /** The strategy asked for, the one that answered in its place, and why. */
    public record Fallback(String strategy, String answeredBy, String reason) {}

    public static final String EXTRACTIVE = "extractive";
    public static final String GENERATED = "generated";

    public StrategyResult(
            String answer,
            String mode,
            List<Citation> citations,
            double confidence,
            Integer choiceIndex,
            boolean budgetLimited) {
        this(answer, mode, citations, confidence, choiceIndex, budgetLimited, AnswerKind.ofMode(mode), null);
    }

    /**
     * An answer that is the passages most likely to hold what was asked, each cited, because no short
     * answer was certain enough to give: {@code answer} is their text, verbatim.
     */
    public static StrategyResult passages(String text, List<Citation> passages, double confidence) {
        return new StrategyResult(text, EXTRACTIVE, passages, confidence, null, false, AnswerKind.PASSAGE, null);
    }

    public StrategyResult {
        citations = List.copyOf(citations);
        if (kind == null) {
            throw new IllegalArgumentException("kind is required");
        }
        if (confidence < 0 || confidence > 1 || Double.isNaN(confidence)) {
            throw new IllegalArgumentException("confidence must be within [0, 1], was " + confidence);
        }
    }

    public StrategyResult withCitations(List<Citation> verified) {
        return new StrategyResult(answer, mode, verified, confidence, choiceIndex, budgetLimited, kind, fallback);
    }

    /** This answer, made by {@code answeredBy} in place of {@code strategy} for {@code reason}. */
    public StrategyResult answeredInstead(String strategy, String answeredBy, String reason) {
        return new StrategyResult(
                answer,
                mode,
                citations,
                confidence,
                choiceIndex,
                budgetLimited,
                kind,
                new Fallback(strategy, answeredBy, reason));
    }
}
