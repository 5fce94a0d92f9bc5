package io.lorekeeper.evaluator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

import io.lorekeeper.evaluator.EvalRunner.ItemResult;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Figures that cannot have been fitted to the items they are measured on (issue #31): each dataset's items are
 * split into {@link Folds}; for every fold, whatever is chosen (the span ranker's weights, the confidence's
 * weights, which search probe to trust) is chosen on the other folds and scored on that one. Beside each
 * cross-validated figure stands the in-sample one (chosen and scored on all items) and the gap between them: how
 * much of the in-sample figure was fitting the dev set.
 */
public final class CrossValidation {

    static final String EXTRACTIVE = "extractive";
    static final String OVERALL = "overall";

    /** Every dataset in the reports. */
    public record Result(List<DatasetResult> datasets) {}

    /**
     * @param foldsBy how the items were split
     * @param folds the folds, each held out once
     */
    public record DatasetResult(
            String dataset,
            String foldsBy,
            List<String> folds,
            AnswerF1 f1,
            List<Ablation> ablations,
            ConfidenceBrier brier,
            EvidenceRecall recall) {}

    /**
     * The cross-validated F1 without the candidates marked by one feature ({@code kind:subject}, {@code
     * source:hop}): what that kind of piece, or the rule that finds it, adds on folds it was not fitted on.
     * {@code delta} = cross-validated F1 with every candidate − without these; above zero, they help.
     */
    public record Ablation(String without, int removed, double crossValidated, double delta) {}

    /**
     * The extractive answers' mean F1 over the headline items: as the service answered (its shipped ranker), with
     * a ranker fitted on all folds (dev), with one fitted on the other folds for each held-out fold
     * (cross-validated), and with the best candidate (oracle). Items without usable candidates keep their
     * reported F1 in every column, so all are means over the same items.
     *
     * @param withCandidates items whose answer was one of their candidates (the ones a ranker can change)
     * @param crossValidatedError the standard error of the cross-validated mean over the items
     * @param note why the columns agree, when no item has candidates
     */
    public record AnswerF1(
            String strategy,
            String categories,
            int n,
            int withCandidates,
            double reported,
            double dev,
            double crossValidated,
            double crossValidatedError,
            double gap,
            double oracle,
            List<FoldF1> perFold,
            SpanRankerFit.Settings settings,
            String note,
            List<Double> rounds) {}

    /** One held-out fold: dev is the all-folds ranker on its items, crossValidated the ranker fitted on {@code fittedOn}. */
    public record FoldF1(
            String fold,
            List<String> fittedOn,
            int n,
            int withCandidates,
            double reported,
            double dev,
            double crossValidated,
            double oracle,
            String settings) {}

    /**
     * The Brier score of the extractive confidence over its answers with confidence features (all categories):
     * the service's reported confidences, a logistic fit on all folds (dev) and per held-out fold on the others.
     */
    public record ConfidenceBrier(
            String strategy,
            int n,
            Double reported,
            Double dev,
            Double crossValidated,
            Double gap,
            List<FoldBrier> perFold) {}

    public record FoldBrier(
            String fold, List<String> fittedOn, int n, Double reported, Double dev, Double crossValidated) {}

    /**
     * Evidence recall of the search probes by category ({@value #OVERALL}: all headline items): each probe on all
     * folds, the best probe chosen on all folds, and the probe chosen per held-out fold on the other folds.
     *
     * @param chosen per held-out fold, the probe chosen for each category
     */
    public record EvidenceRecall(List<String> categories, List<RecallRow> rows, List<FoldChoice> chosen) {}

    /** @param recall by category, null where the row has no item */
    public record RecallRow(String strategy, String measuredOn, Map<String, Double> recall) {}

    public record FoldChoice(String fold, List<String> fittedOn, Map<String, String> strategy) {}

    private CrossValidation() {}

    /**
     * Each dataset's held-out folds are scored by rankers fitted on its other folds plus every item of the
     * other datasets in the reports, as the shipped ranker is fitted on all of them: nothing of a held-out
     * fold is ever seen by the ranker that scores it.
     */
    public static Result of(List<Path> reports) {
        List<ReportItems> all = ReportItems.byDataset(reports);
        return new Result(all.stream()
                .map(r -> of(
                        r.dataset(),
                        r.strategies(),
                        r.items(),
                        all.stream()
                                .filter(o -> o != r)
                                .flatMap(o -> examples(o.dataset(), o.items()).stream())
                                .toList(),
                        all.stream()
                                .filter(o -> o != r)
                                .flatMap(o -> confidences(o.dataset(), o.items()).stream())
                                .map(Confidence::example)
                                .toList()))
                .toList());
    }

    static DatasetResult of(String dataset, List<String> strategies, List<ItemResult> items) {
        return of(dataset, strategies, items, List.of(), List.of());
    }

    static DatasetResult of(
            String dataset,
            List<String> strategies,
            List<ItemResult> items,
            List<SpanRankerFit.Example> elsewhere,
            List<ConfidenceFit.Example> confidencesElsewhere) {
        List<String> folds =
                Folds.names(dataset, items.stream().map(i -> i.asked().itemId()).toList());
        String foldsBy = dataset.equals("locomo")
                ? "conversation (leave one conversation out)"
                : "question (" + Folds.HASHED + " folds by CRC-32 of the item id)";
        AnswerF1 f1 = answerF1(dataset, folds, items, elsewhere, null, null, Folds.rounds(dataset));
        return new DatasetResult(
                dataset,
                foldsBy,
                folds,
                f1,
                ablations(dataset, folds, items, elsewhere, f1.settings()),
                brier(dataset, folds, items, confidencesElsewhere),
                recall(dataset, folds, strategies, items));
    }

    /** The categories of the headline figures: LoCoMo's answerable ones (1-4), every category elsewhere. */
    static boolean headline(String dataset, ItemResult r) {
        return !dataset.equals("locomo")
                || Set.of("1", "2", "3", "4").contains(r.asked().category());
    }

    private static List<String> others(List<String> folds, String fold) {
        return folds.stream().filter(f -> !f.equals(fold)).toList();
    }

    // ---- answer F1 ----

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
        java.util.function.Function<List<SpanRankerFit.Example>, SpanRankerFit.Chosen> fit = train -> settings == null
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
            java.util.function.Function<List<SpanRankerFit.Example>, SpanRankerFit.Chosen> fit,
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
            java.util.function.Function<List<SpanRankerFit.Example>, SpanRankerFit.Chosen> fit) {
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

    /**
     * One ablation per kind and source of candidate that the dataset's items hold.
     *
     * @param settings those chosen by the full cross-validation's fit on all items
     */
    static List<Ablation> ablations(
            String dataset,
            List<String> folds,
            List<ItemResult> items,
            List<SpanRankerFit.Example> elsewhere,
            SpanRankerFit.Settings settings) {
        List<SpanRankerFit.Example> mine = examples(dataset, items);
        Set<String> marks = new java.util.TreeSet<>();
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
        double full = meanOverAssignments(answerF1(dataset, folds, items, elsewhere, null, settings, assignments));
        List<Ablation> out = new ArrayList<>();
        for (String mark : marks) {
            int removed = mine.stream()
                    .mapToInt(e -> (int) e.features().stream()
                            .filter(f -> f.getOrDefault(mark, 0.0) == 1.0)
                            .count())
                    .sum();
            double cv = meanOverAssignments(answerF1(dataset, folds, items, elsewhere, mark, settings, assignments));
            out.add(new Ablation(mark, removed, cv, full - cv));
        }
        return out;
    }

    private static double meanOverAssignments(AnswerF1 f1) {
        return f1.rounds().stream().mapToDouble(Double::doubleValue).average().orElseThrow();
    }

    private static int withCandidates(List<Answer> answers) {
        return (int) answers.stream().filter(a -> a.example() != null).count();
    }

    // ---- confidence ----

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

    /**
     * The F1 of the item's short answer: the one given, or the one a passage answer withheld (the span ranker and
     * the short answer's confidence are what this report measures, whether or not the answer was given).
     */
    private static double shortAnswerF1(ItemResult r) {
        EvalRunner.Reply.Withheld withheld = r.reply().withheld();
        Double f1 = withheld != null ? withheld.f1() : r.scores().f1();
        return f1 == null ? 0 : f1;
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

    // ---- evidence recall ----

    static EvidenceRecall recall(String dataset, List<String> folds, List<String> strategies, List<ItemResult> items) {
        List<ItemResult> probed = items.stream()
                .filter(r -> r.asked().strategy().startsWith(EvalRunner.SEARCH_PREFIX)
                        && headline(dataset, r)
                        && r.evidence().evidenceRecall() != null)
                .toList();
        List<String> probes = strategies.stream()
                .filter(s -> probed.stream().anyMatch(r -> r.asked().strategy().equals(s)))
                .toList();
        List<String> columns = new ArrayList<>(new java.util.TreeSet<>(
                probed.stream().map(r -> r.asked().category()).toList()));
        columns.add(OVERALL);
        List<RecallRow> rows = new ArrayList<>();
        if (probes.isEmpty()) {
            return new EvidenceRecall(columns, rows, List.of());
        }
        for (String probe : probes) {
            Map<String, Double> recall = new LinkedHashMap<>();
            for (String column : columns) {
                recall.put(column, recall(dataset, probed, probe, column, fold -> true));
            }
            rows.add(new RecallRow(probe, "all folds", recall));
        }
        Map<String, Double> best = new LinkedHashMap<>();
        for (String column : columns) {
            String chosen = choose(dataset, probed, probes, column, fold -> true);
            best.put(column, recall(dataset, probed, chosen, column, fold -> true));
        }
        rows.add(new RecallRow("best probe (chosen on all folds)", "all folds", best));
        // per held-out fold, the probe chosen on the others; the held-out items' recalls pooled over the folds
        List<FoldChoice> choices = new ArrayList<>();
        Map<String, List<Double>> pooled = new LinkedHashMap<>();
        columns.forEach(c -> pooled.put(c, new ArrayList<>()));
        for (String fold : folds) {
            Map<String, String> chosen = new LinkedHashMap<>();
            for (String column : columns) {
                String probe = choose(dataset, probed, probes, column, f -> !f.equals(fold));
                chosen.put(column, probe);
                probed.stream()
                        .filter(r -> in(dataset, r, probe, column, fold::equals))
                        .forEach(r -> pooled.get(column).add(r.evidence().evidenceRecall()));
            }
            choices.add(new FoldChoice(fold, others(folds, fold), chosen));
        }
        Map<String, Double> cv = new LinkedHashMap<>();
        Map<String, Double> gap = new LinkedHashMap<>();
        for (String column : columns) {
            List<Double> values = pooled.get(column);
            Double value = values.isEmpty()
                    ? null
                    : values.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
            cv.put(column, value);
            gap.put(column, value == null || best.get(column) == null ? null : best.get(column) - value);
        }
        rows.add(new RecallRow(
                "chosen (cross-validated)", "chosen on the other folds, scored on each held-out fold", cv));
        rows.add(new RecallRow("gap (best − cross-validated)", "", gap));
        return new EvidenceRecall(columns, rows, choices);
    }

    private static boolean in(String dataset, ItemResult r, String probe, String column, Predicate<String> folds) {
        return r.asked().strategy().equals(probe)
                && (column.equals(OVERALL) || r.asked().category().equals(column))
                && folds.test(Folds.of(dataset, r.asked().itemId()));
    }

    private static Double recall(
            String dataset, List<ItemResult> probed, String probe, String column, Predicate<String> folds) {
        List<ItemResult> cell = probed.stream()
                .filter(r -> in(dataset, r, probe, column, folds))
                .toList();
        return Report.mean(cell, r -> r.evidence().evidenceRecall());
    }

    /** The probe with the best mean recall on the folds given; the earlier probe on a tie (or where none has items). */
    private static String choose(
            String dataset, List<ItemResult> probed, List<String> probes, String column, Predicate<String> folds) {
        String chosen = probes.getFirst();
        double top = Double.NEGATIVE_INFINITY;
        for (String probe : probes) {
            Double r = recall(dataset, probed, probe, column, folds);
            if (r != null && r > top) {
                top = r;
                chosen = probe;
            }
        }
        return chosen;
    }

    // ---- writers ----

    /** Writes cv.json and cv.md into the folder; returns the folder. */
    public static Path write(Result result, Path folder) {
        try {
            Files.createDirectories(folder);
            JsonMapper json = JsonMapper.builder()
                    .enable(SerializationFeature.INDENT_OUTPUT)
                    .build();
            Files.writeString(folder.resolve("cv.json"), json.writeValueAsString(result) + "\n");
            Files.writeString(folder.resolve("cv.md"), markdown(result));
            return folder;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String markdown(Result result) {
        StringBuilder out = new StringBuilder();
        for (DatasetResult d : result.datasets()) {
            out.append("## Cross-validated report: ").append(d.dataset()).append("\n\n");
            out.append("Folds by ").append(d.foldsBy()).append(": ").append(String.join(", ", d.folds()));
            out.append(". Dev: fitted and scored on all folds; cross-validated: for each fold, fitted on the ")
                    .append("other folds (and every item of the other datasets in the reports, as the shipped models ")
                    .append("are) and scored on it, the mean over all held-out items.\n\n");
            f1(out, d.f1());
            ablations(out, d.ablations());
            brier(out, d.brier());
            recall(out, d.recall());
        }
        return out.toString();
    }

    /** One row of a markdown table. */
    private static void row(StringBuilder out, Object... cells) {
        out.append("| ");
        for (int i = 0; i < cells.length; i++) {
            out.append(i == 0 ? "" : " | ").append(cells[i] instanceof Double d ? fmt(d) : String.valueOf(cells[i]));
        }
        out.append(" |\n");
    }

    private static void header(StringBuilder out, String... columns) {
        row(out, (Object[]) columns);
        out.append("|").append("---|".repeat(columns.length)).append("\n");
    }

    private static void f1(StringBuilder out, AnswerF1 f) {
        out.append("### %s F1 (categories %s, %d items, %d with answer candidates)\n\n"
                .formatted(f.strategy(), f.categories(), f.n(), f.withCandidates()));
        if (f.note() != null) {
            out.append("_").append(f.note()).append("_\n\n");
        }
        header(out, "", "fitted on", "scored on", "F1");
        row(out, "reported (the service's answers)", "(shipped model)", "all folds", f.reported());
        row(out, "dev (in-sample; " + f.settings() + ")", "all folds", "all folds", f.dev());
        row(
                out,
                "cross-validated",
                "the other folds",
                "each held-out fold",
                fmt(f.crossValidated()) + " ± " + fmt(f.crossValidatedError()));
        if (f.rounds().size() > 1) {
            row(
                    out,
                    "cross-validated, mean of " + f.rounds().size() + " fold assignments",
                    "the other folds",
                    "each held-out fold",
                    fmt(f.rounds().stream()
                                    .mapToDouble(Double::doubleValue)
                                    .average()
                                    .orElse(0)) + " (each: "
                            + String.join(
                                    ", ",
                                    f.rounds().stream()
                                            .map(CrossValidation::fmt)
                                            .toList())
                            + ")");
        }
        row(out, "gap (dev − cross-validated)", "", "", f.gap());
        row(out, "oracle (best candidate)", "", "all folds", f.oracle());
        out.append("\n");
        header(
                out,
                "held-out fold",
                "n",
                "with candidates",
                "cross-validated fitted on",
                "settings chosen there",
                "reported",
                "dev",
                "cross-validated",
                "oracle");
        for (FoldF1 fold : f.perFold()) {
            row(
                    out,
                    fold.fold(),
                    fold.n(),
                    fold.withCandidates(),
                    String.join(", ", fold.fittedOn()),
                    fold.settings(),
                    fold.reported(),
                    fold.dev(),
                    fold.crossValidated(),
                    fold.oracle());
        }
        out.append("\n");
    }

    private static void ablations(StringBuilder out, List<Ablation> ablations) {
        if (ablations.isEmpty()) {
            return;
        }
        out.append("#### Ablations (cross-validated F1 without one kind or source of candidate, mean over the fold"
                + " assignments)\n\n");
        header(out, "without", "candidates removed", "cross-validated F1", "it adds");
        for (Ablation a : ablations) {
            row(
                    out,
                    "`" + a.without() + "`",
                    a.removed(),
                    a.crossValidated(),
                    String.format(java.util.Locale.ROOT, "%+.3f", a.delta()));
        }
        out.append("\n");
    }

    private static void brier(StringBuilder out, ConfidenceBrier b) {
        out.append("### %s confidence Brier (all categories, %d answers with confidence features; lower is better)\n\n"
                .formatted(b.strategy(), b.n()));
        if (b.n() == 0) {
            out.append("_no answers with confidence features_\n\n");
            return;
        }
        header(out, "", "fitted on", "scored on", "Brier");
        row(out, "reported (the service's confidences)", "(shipped model)", "all folds", b.reported());
        row(out, "dev (in-sample)", "all folds", "all folds", b.dev());
        row(out, "cross-validated", "the other folds", "each held-out fold", b.crossValidated());
        row(out, "gap (cross-validated − dev)", "", "", b.gap());
        out.append("\n");
        header(out, "held-out fold", "n", "cross-validated fitted on", "reported", "dev", "cross-validated");
        for (FoldBrier fold : b.perFold()) {
            row(
                    out,
                    fold.fold(),
                    fold.n(),
                    String.join(", ", fold.fittedOn()),
                    fold.reported(),
                    fold.dev(),
                    fold.crossValidated());
        }
        out.append("\n");
    }

    private static void recall(StringBuilder out, EvidenceRecall r) {
        out.append("### Evidence recall of the search probes (by category)\n\n");
        if (r.rows().isEmpty()) {
            out.append("_no search probe in the report_\n\n");
            return;
        }
        List<String> columns = new ArrayList<>(List.of("probe", "measured on"));
        columns.addAll(r.categories());
        header(out, columns.toArray(String[]::new));
        for (RecallRow recallRow : r.rows()) {
            List<Object> cells = new ArrayList<>(List.of(recallRow.strategy(), recallRow.measuredOn()));
            r.categories().forEach(c -> cells.add(recallRow.recall().get(c)));
            row(out, cells.toArray());
        }
        out.append("\nChosen per held-out fold (on the other folds):\n\n");
        for (FoldChoice choice : r.chosen()) {
            List<String> parts = new ArrayList<>();
            choice.strategy().forEach((c, s) -> parts.add(c + " → " + s));
            out.append("- %s (chosen on %s): %s\n"
                    .formatted(choice.fold(), String.join(", ", choice.fittedOn()), String.join(", ", parts)));
        }
        out.append("\n");
    }

    private static String fmt(Double d) {
        return d == null || d.isNaN() ? "–" : String.format(Locale.ROOT, "%.3f", d);
    }

    // ---- helpers ----

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
