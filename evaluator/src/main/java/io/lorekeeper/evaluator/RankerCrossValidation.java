package io.lorekeeper.evaluator;

import static io.lorekeeper.evaluator.CrossValidation.EXTRACTIVE;
import static io.lorekeeper.evaluator.CrossValidation.headline;
import static io.lorekeeper.evaluator.CrossValidation.others;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

import io.lorekeeper.evaluator.CrossValidation.AnswerF1;
import io.lorekeeper.evaluator.CrossValidation.FoldF1;
import io.lorekeeper.evaluator.EvalRunner.ItemResult;

/**
 * The extractive answers' F1 under a span ranker fitted on the other folds (issue #31): what {@link SpanRankerFit}
 * chooses is scored only on items it never saw. Apart from {@link CrossValidation} because the fitting per fold and
 * per fold assignment is most of the work, and the confidence and the probe choice share none of it.
 */
final class RankerCrossValidation {

    private RankerCrossValidation() {}

    /** One headline extractive item: its reported F1 and, when it has usable candidates, its ranking example. */
    private record Answer(String fold, double reported, SpanRankerFit.Example example) {

        double with(SpanRankerFit.Model model) {
            return example == null ? reported : model.f1(example);
        }

        double oracle() {
            return example == null ? reported : example.best();
        }
    }

    static AnswerF1 answerF1(String dataset, List<String> folds, List<ItemResult> items) {
        return answerF1(dataset, folds, items, List.of(), null, null, 1);
    }

    /**
     * @param elsewhere examples of other datasets, added to every training set
     * @param without   a feature whose candidates are left out (an ablation); null for none
     * @param settings  fixed fitting settings (an ablation reuses those chosen with every candidate); null to
     *                  choose them by an inner cross-validation in each training set
     * @param assignments how many assignments of items to folds to cross-validate under ({@link Folds#rounds}):
     *                  the first gives every figure, the others only their cross-validated F1 ({@code rounds})
     *
     * <p>Long because one pass builds the answers, the all-folds and per-fold fits and the per-fold rows from
     * the same lists; split up, each part would take the same five arguments.
     */
    static AnswerF1 answerF1(
            String dataset,
            List<String> folds,
            List<ItemResult> items,
            List<SpanRankerFit.Example> elsewhere,
            String without,
            SpanRankerFit.Settings settings,
            int assignments) {
        List<SpanRankerFit.Example> others = elsewhere.stream()
                .map(e -> SpanRankerFit.without(e, without))
                .filter(Objects::nonNull)
                .toList();
        List<Answer> answers = answers(dataset, items, without, 0);
        Function<List<SpanRankerFit.Example>, SpanRankerFit.Chosen> fit = train -> settings == null
                ? SpanRankerFit.fitChoosing(train, SpanRankerFit.Example::group)
                : new SpanRankerFit.Chosen(SpanRankerFit.fit(train, settings), settings);
        SpanRankerFit.Chosen chosenOnAll = fit.apply(training(answers, a -> true, others));
        SpanRankerFit.Model all = chosenOnAll.model();
        Map<String, SpanRankerFit.Chosen> chosen = heldOut(answers, folds, others, fit);
        Map<String, SpanRankerFit.Model> held = new LinkedHashMap<>();
        chosen.forEach((fold, c) -> held.put(fold, c.model()));
        List<FoldF1> perFold = new ArrayList<>();
        for (String fold : folds) {
            List<Answer> mine =
                    answers.stream().filter(a -> a.fold().equals(fold)).toList();
            perFold.add(new FoldF1(
                    fold,
                    others(folds, fold),
                    mine.size(),
                    withCandidates(mine),
                    mean(mine, Answer::reported),
                    mean(mine, a -> a.with(all)),
                    mean(mine, a -> a.with(held.get(fold))),
                    mean(mine, Answer::oracle),
                    chosen.get(fold).settings().toString()));
        }
        double dev = mean(answers, a -> a.with(all));
        double cv = mean(answers, a -> a.with(held.get(a.fold())));
        int usable = withCandidates(answers);
        return new AnswerF1(
                EXTRACTIVE,
                dataset.equals("locomo") ? "1-4" : "all",
                answers.size(),
                usable,
                mean(answers, Answer::reported),
                dev,
                cv,
                standardError(answers, a -> a.with(held.get(a.fold()))),
                dev - cv,
                mean(answers, Answer::oracle),
                perFold,
                chosenOnAll.settings(),
                usable == 0
                        ? "no answer candidates in the report (a service from before the extractive.candidates event):"
                                + " dev and cross-validated are the reported F1"
                        : null,
                otherAssignments(dataset, items, without, others, fit, cv, assignments));
    }

    /**
     * The cross-validated F1 under each fold assignment, the first ({@code first}) already computed: a mean over
     * several is steadier than any one (HotpotQA's 100 questions; LoCoMo's folds are its conversations).
     */
    private static List<Double> otherAssignments(
            String dataset,
            List<ItemResult> items,
            String without,
            List<SpanRankerFit.Example> others,
            Function<List<SpanRankerFit.Example>, SpanRankerFit.Chosen> fit,
            double first,
            int assignments) {
        List<Double> out = new ArrayList<>(List.of(first));
        List<String> ids = items.stream().map(i -> i.asked().itemId()).toList();
        for (int round = 1; round < assignments; round++) {
            List<Answer> answers = answers(dataset, items, without, round);
            Map<String, SpanRankerFit.Chosen> held = heldOut(answers, Folds.names(dataset, ids, round), others, fit);
            out.add(mean(answers, a -> a.with(held.get(a.fold()).model())));
        }
        return out;
    }

    /** The dataset's headline extractive items in the folds of one assignment; a failed question scores 0, as in the report. */
    private static List<Answer> answers(String dataset, List<ItemResult> items, String without, int round) {
        return items.stream()
                .filter(r -> r.asked().strategy().equals(EXTRACTIVE) && headline(dataset, r))
                .map(r -> new Answer(
                        Folds.of(dataset, r.asked().itemId(), round),
                        shortAnswerF1(r),
                        SpanRankerFit.without(SpanRankerFit.example(dataset, r, round), without)))
                .toList();
    }

    /** For each fold, the ranker fitted on the other folds' answers and {@code elsewhere}. */
    private static Map<String, SpanRankerFit.Chosen> heldOut(
            List<Answer> answers,
            List<String> folds,
            List<SpanRankerFit.Example> elsewhere,
            Function<List<SpanRankerFit.Example>, SpanRankerFit.Chosen> fit) {
        Map<String, SpanRankerFit.Chosen> held = new LinkedHashMap<>();
        for (String fold : folds) {
            held.put(fold, fit.apply(training(answers, a -> !a.fold().equals(fold), elsewhere)));
        }
        return held;
    }

    private static List<SpanRankerFit.Example> training(
            List<Answer> answers, Predicate<Answer> which, List<SpanRankerFit.Example> elsewhere) {
        List<SpanRankerFit.Example> out = new ArrayList<>(elsewhere);
        answers.stream()
                .filter(which)
                .map(Answer::example)
                .filter(Objects::nonNull)
                .forEach(out::add);
        return out;
    }

    /** The dataset's headline extractive items as ranking examples (those with usable candidates). */
    static List<SpanRankerFit.Example> examples(String dataset, List<ItemResult> items) {
        return items.stream()
                .filter(r -> r.asked().strategy().equals(EXTRACTIVE) && headline(dataset, r))
                .map(r -> SpanRankerFit.example(dataset, r))
                .filter(Objects::nonNull)
                .toList();
    }

    private static int withCandidates(List<Answer> answers) {
        return (int) answers.stream().filter(a -> a.example() != null).count();
    }

    /**
     * The F1 of the item's short answer: the one given, or the one a passage answer withheld (the span ranker and
     * the short answer's confidence are what this report measures, whether or not the answer was given).
     */
    private static double shortAnswerF1(ItemResult r) {
        EvalRunner.Reply.Withheld withheld = r.reply().withheld();
        Double f1 = withheld != null ? withheld.f1() : r.scores().f1();
        return f1 == null ? 0 : f1;
    }

    /** The standard error of the mean: how far another sample of as many items could move it. */
    private static <T> double standardError(List<T> values, Function<T, Double> metric) {
        if (values.size() < 2) {
            return 0;
        }
        double mean = mean(values, metric);
        double squares = values.stream()
                .mapToDouble(v -> Math.pow(metric.apply(v) - mean, 2))
                .sum();
        return Math.sqrt(squares / (values.size() - 1) / values.size());
    }

    private static <T> double mean(List<T> values, Function<T, Double> metric) {
        Double m = Report.mean(values, metric);
        return m == null ? Double.NaN : m;
    }
}
