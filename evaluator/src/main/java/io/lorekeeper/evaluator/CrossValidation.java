package io.lorekeeper.evaluator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.lorekeeper.evaluator.EvalRunner.ItemResult;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Figures that cannot have been fitted to the items they are measured on (issue #31): each dataset's items are
 * split into {@link Folds}; for every fold, whatever is chosen (the span ranker's weights, the confidence's
 * weights, which search probe to trust) is chosen on the other folds and scored on that one. Beside each
 * cross-validated figure stands the in-sample one (chosen and scored on all items) and the gap between them: how
 * much of the in-sample figure was fitting the dev set.
 *
 * <p>Here: the figures' records (cv.json), the split into folds and the files; each figure is worked out in its own
 * class ({@link RankerCrossValidation}, {@link CandidateAblations}, {@link ConfidenceCrossValidation}, {@link
 * ProbeCrossValidation}) and cv.md is laid out by {@link CrossValidationMarkdown}.
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
                                .flatMap(o -> RankerCrossValidation.examples(o.dataset(), o.items()).stream())
                                .toList(),
                        all.stream()
                                .filter(o -> o != r)
                                .flatMap(o -> ConfidenceCrossValidation.confidences(o.dataset(), o.items()).stream())
                                .map(ConfidenceCrossValidation.Confidence::example)
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
        AnswerF1 f1 =
                RankerCrossValidation.answerF1(dataset, folds, items, elsewhere, null, null, Folds.rounds(dataset));
        return new DatasetResult(
                dataset,
                foldsBy,
                folds,
                f1,
                CandidateAblations.of(dataset, folds, items, elsewhere, f1.settings()),
                ConfidenceCrossValidation.brier(dataset, folds, items, confidencesElsewhere),
                ProbeCrossValidation.recall(dataset, folds, strategies, items));
    }

    /** The categories of the headline figures: LoCoMo's answerable ones (1-4), every category elsewhere. */
    static boolean headline(String dataset, ItemResult r) {
        return !dataset.equals("locomo")
                || Set.of("1", "2", "3", "4").contains(r.asked().category());
    }

    /** The folds a held-out fold's figure is fitted on. */
    static List<String> others(List<String> folds, String fold) {
        return folds.stream().filter(f -> !f.equals(fold)).toList();
    }

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

    /** cv.md, as written by {@link #write}. */
    public static String markdown(Result result) {
        return CrossValidationMarkdown.of(result);
    }
}
