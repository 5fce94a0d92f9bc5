package io.lorekeeper.evaluator;

import java.util.List;
import java.util.Objects;

import io.lorekeeper.evaluator.EvalRunner.ItemResult;

/**
 * Whether a strategy's confidence means anything: the Brier score of its confidence against the
 * answer being right (0 is perfect, 0.25 is what a constant 0.5 earns), and how well it ranks right above
 * wrong (AUROC). Right is the judge's verdict when the answer was judged; for a passage answer, that its
 * passages hold a gold answer; else a headline score (choice accuracy, else F1) of at least 0.5.
 * Only answers that came with a confidence and can be scored count.
 */
final class Calibration {

    private Calibration() {}

    static Double brier(List<ItemResult> cell) {
        List<double[]> pairs = scored(cell);
        return pairs.isEmpty()
                ? null
                : pairs.stream()
                        .mapToDouble(p -> (p[0] - p[1]) * (p[0] - p[1]))
                        .average()
                        .orElseThrow();
    }

    /**
     * How well the confidence ranks right answers above wrong ones: the chance that a right answer, drawn at
     * random, has a higher confidence than a wrong one (ties count half); 0.5 is chance. Null without both.
     */
    static Double auroc(List<ItemResult> cell) {
        List<double[]> pairs = scored(cell);
        double wins = 0;
        long comparisons = 0;
        for (double[] r : pairs) {
            if (r[1] != 1) {
                continue;
            }
            for (double[] w : pairs) {
                if (w[1] == 0) {
                    wins += r[0] > w[0] ? 1 : r[0] == w[0] ? 0.5 : 0;
                    comparisons++;
                }
            }
        }
        return comparisons == 0 ? null : wins / comparisons;
    }

    /** (confidence, 1 if right else 0) of each answer that came with a confidence and can be scored. */
    private static List<double[]> scored(List<ItemResult> cell) {
        return cell.stream()
                .filter(i -> "DONE".equals(i.reply().status()) && i.reply().confidence() != null)
                .map(i -> {
                    Boolean right = right(i);
                    return right == null ? null : new double[] {i.reply().confidence(), right ? 1 : 0};
                })
                .filter(Objects::nonNull)
                .toList();
    }

    /**
     * Right is the judge's verdict when there is one; a passage answer is right when its passages hold a gold
     * answer; otherwise a headline score of at least 0.5.
     */
    static Boolean right(ItemResult i) {
        if (i.reply().passage() && i.reply().holdsAnswer() != null && i.graded().judge() == null) {
            return i.reply().holdsAnswer();
        }
        if (i.graded().judge() != null) {
            return i.graded().judge() >= 0.5;
        }
        return i.score() == null ? null : i.score() >= 0.5;
    }
}
