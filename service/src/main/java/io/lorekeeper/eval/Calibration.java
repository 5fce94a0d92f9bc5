package io.lorekeeper.eval;

import java.util.List;
import java.util.Objects;

import io.lorekeeper.eval.EvalRunner.ItemResult;

/**
 * Whether a strategy's confidence means anything: the Brier score of its confidence against the
 * answer being right (0 is perfect, 0.25 is what a constant 0.5 earns). Right is the judge's verdict
 * when the answer was judged, else a headline score (choice accuracy, else F1) of at least 0.5.
 * Only answers that came with a confidence and can be scored count.
 */
final class Calibration {

    private Calibration() {}

    static Double brier(List<ItemResult> cell) {
        List<double[]> pairs = cell.stream()
                .filter(i -> "DONE".equals(i.status()) && i.confidence() != null)
                .map(i -> {
                    Boolean right = right(i);
                    return right == null ? null : new double[] {i.confidence(), right ? 1 : 0};
                })
                .filter(Objects::nonNull)
                .toList();
        return pairs.isEmpty()
                ? null
                : pairs.stream()
                        .mapToDouble(p -> (p[0] - p[1]) * (p[0] - p[1]))
                        .average()
                        .orElseThrow();
    }

    static Boolean right(ItemResult i) {
        if (i.judge() != null) {
            return i.judge() >= 0.5;
        }
        return i.score() == null ? null : i.score() >= 0.5;
    }
}
