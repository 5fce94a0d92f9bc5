package io.lorekeeper.evaluator;

import java.util.stream.Collectors;

/**
 * An LLM judge: grades whether an answer means the same as the item's gold answer. The library has no model of its
 * own; the service grades through its LLM gateway ({@code judge} role). {@link EvalRunner} asks it about every answer
 * that came back DONE and {@link #applies} to.
 */
@FunctionalInterface
public interface Grader {

    /** The reference shown for a question the documents cannot answer (LoCoMo's adversarial category). */
    String UNANSWERABLE =
            "(none: the document does not contain this information; the correct answer says it is not available)";

    /** Grades one answer; never throws for a model failure, which becomes the judgement's error. */
    Judgement grade(EvalItem item, String answer);

    /**
     * Whether an item can be judged: it has a gold answer, or is one the documents cannot answer. RULER is left to
     * its string match: its answers are needles that must all appear, which is not the "any one of these" a
     * reference list means.
     */
    static boolean applies(EvalItem item) {
        return !item.dataset().equals("ruler")
                && (unanswerable(item) || item.answers().stream().anyMatch(a -> !a.isBlank()));
    }

    /** The gold answers, one per line; for an unanswerable question, a line saying the answer is that it is not available. */
    static String reference(EvalItem item) {
        if (unanswerable(item)) {
            return UNANSWERABLE;
        }
        return item.answers().stream()
                .filter(a -> !a.isBlank())
                .map(a -> "- " + a)
                .collect(Collectors.joining("\n"));
    }

    private static boolean unanswerable(EvalItem item) {
        return item.dataset().equals("locomo") && item.category().equals("5");
    }
}
