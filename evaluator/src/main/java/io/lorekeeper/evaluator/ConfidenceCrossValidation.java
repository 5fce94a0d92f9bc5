package io.lorekeeper.evaluator;

import static io.lorekeeper.evaluator.CrossValidation.EXTRACTIVE;
import static io.lorekeeper.evaluator.CrossValidation.others;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import io.lorekeeper.evaluator.CrossValidation.ConfidenceBrier;
import io.lorekeeper.evaluator.CrossValidation.FoldBrier;
import io.lorekeeper.evaluator.EvalRunner.ItemResult;

/**
 * The extractive confidence's Brier score under a {@link ConfidenceFit} trained on the other folds: whether the
 * calibrated confidence holds on answers its logistic fit never saw.
 */
final class ConfidenceCrossValidation {

    private ConfidenceCrossValidation() {}

    /** @param reported the strategy's own confidence; null when it gave none */
    record Confidence(String fold, ConfidenceFit.Example example, Double reported) {}

    static ConfidenceBrier brier(String dataset, List<String> folds, List<ItemResult> items) {
        return brier(dataset, folds, items, List.of());
    }

    /** @param elsewhere answers of other datasets, added to every training set (as the shipped fit uses them) */
    static ConfidenceBrier brier(
            String dataset, List<String> folds, List<ItemResult> items, List<ConfidenceFit.Example> elsewhere) {
        List<Confidence> answers = confidences(dataset, items);
        if (answers.isEmpty()) {
            return new ConfidenceBrier(EXTRACTIVE, 0, null, null, null, null, List.of());
        }
        List<ConfidenceFit.Example> everything = new ArrayList<>(elsewhere);
        answers.forEach(a -> everything.add(a.example()));
        ConfidenceFit.Logistic all = ConfidenceFit.train(everything);
        Map<String, ConfidenceFit.Logistic> held = new LinkedHashMap<>();
        for (String fold : folds) {
            List<ConfidenceFit.Example> train = new ArrayList<>(elsewhere);
            answers.stream()
                    .filter(a -> !a.fold().equals(fold))
                    .map(Confidence::example)
                    .forEach(train::add);
            held.put(fold, train.isEmpty() ? null : ConfidenceFit.train(train));
        }
        List<FoldBrier> perFold = new ArrayList<>();
        for (String fold : folds) {
            List<Confidence> mine =
                    answers.stream().filter(a -> a.fold().equals(fold)).toList();
            perFold.add(new FoldBrier(
                    fold,
                    others(folds, fold),
                    mine.size(),
                    brier(mine, Confidence::reported),
                    brier(mine, a -> all.confidence(a.example().features())),
                    brier(
                            mine,
                            a -> held.get(fold) == null
                                    ? null
                                    : held.get(fold).confidence(a.example().features()))));
        }
        Double dev = brier(answers, a -> all.confidence(a.example().features()));
        Double cv = brier(
                answers,
                a -> held.get(a.fold()) == null
                        ? null
                        : held.get(a.fold()).confidence(a.example().features()));
        return new ConfidenceBrier(
                EXTRACTIVE,
                answers.size(),
                brier(answers, Confidence::reported),
                dev,
                cv,
                dev == null || cv == null ? null : cv - dev,
                perFold);
    }

    /** The dataset's extractive answers that carry confidence features and a verdict (of their short answer). */
    static List<Confidence> confidences(String dataset, List<ItemResult> items) {
        List<Confidence> answers = new ArrayList<>();
        for (ItemResult r : items) {
            EvalRunner.Reply.Withheld withheld = r.reply().withheld();
            Boolean right =
                    withheld == null ? Calibration.right(r) : withheld.f1() == null ? null : withheld.f1() >= 0.5;
            if (r.asked().strategy().equals(EXTRACTIVE)
                    && "DONE".equals(r.reply().status())
                    && r.reply().confidenceFeatures() != null
                    && right != null) {
                answers.add(new Confidence(
                        Folds.of(dataset, r.asked().itemId()),
                        new ConfidenceFit.Example(r.asked().itemId(), r.reply().confidenceFeatures(), right),
                        withheld == null ? r.reply().confidence() : withheld.confidence()));
            }
        }
        return answers;
    }

    /** Mean squared error of the confidences against rightness; answers without a confidence are left out. */
    private static Double brier(List<Confidence> answers, Function<Confidence, Double> confidence) {
        return Report.mean(answers, a -> {
            Double p = confidence.apply(a);
            double y = a.example().right() ? 1 : 0;
            return p == null ? null : (p - y) * (p - y);
        });
    }
}
