package io.lorekeeper.evaluator;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import io.lorekeeper.evaluator.CrossValidation.Ablation;
import io.lorekeeper.evaluator.CrossValidation.AnswerF1;
import io.lorekeeper.evaluator.EvalRunner.ItemResult;

/**
 * The cross-validated F1 without one kind or source of answer candidate: what that candidate, or the rule that finds
 * it, adds on folds the ranker was not fitted on. Each ablation reruns the whole {@link RankerCrossValidation} with
 * those candidates left out.
 */
final class CandidateAblations {

    private CandidateAblations() {}

    /**
     * One ablation per kind and source of candidate that the dataset's items hold.
     *
     * @param settings those chosen by the full cross-validation's fit on all items
     */
    static List<Ablation> of(
            String dataset,
            List<String> folds,
            List<ItemResult> items,
            List<SpanRankerFit.Example> elsewhere,
            SpanRankerFit.Settings settings) {
        List<SpanRankerFit.Example> mine = RankerCrossValidation.examples(dataset, items);
        Set<String> marks = new TreeSet<>();
        mine.forEach(e -> e.features()
                .forEach(f -> f.keySet().stream()
                        .filter(k -> (k.startsWith("kind:") || k.startsWith("source:")) && !k.equals("kind:sentence"))
                        .forEach(marks::add)));
        if (marks.isEmpty()) {
            return List.of();
        }
        // the settings chosen on every training item are kept: an ablation measures the candidates, not the choice
        // and each figure is the mean over the dataset's fold assignments: one split moves HotpotQA's by ±0.02
        int assignments = Folds.rounds(dataset);
        double full = meanOverAssignments(
                RankerCrossValidation.answerF1(dataset, folds, items, elsewhere, null, settings, assignments));
        List<Ablation> out = new ArrayList<>();
        for (String mark : marks) {
            int removed = mine.stream()
                    .mapToInt(e -> (int) e.features().stream()
                            .filter(f -> f.getOrDefault(mark, 0.0) == 1.0)
                            .count())
                    .sum();
            double cv = meanOverAssignments(
                    RankerCrossValidation.answerF1(dataset, folds, items, elsewhere, mark, settings, assignments));
            out.add(new Ablation(mark, removed, cv, full - cv));
        }
        return out;
    }

    private static double meanOverAssignments(AnswerF1 f1) {
        return f1.rounds().stream().mapToDouble(Double::doubleValue).average().orElseThrow();
    }
}
