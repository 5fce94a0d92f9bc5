package io.lorekeeper.evaluator;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.lorekeeper.evaluator.CrossValidation.Ablation;
import io.lorekeeper.evaluator.CrossValidation.AnswerF1;
import io.lorekeeper.evaluator.CrossValidation.ConfidenceBrier;
import io.lorekeeper.evaluator.CrossValidation.DatasetResult;
import io.lorekeeper.evaluator.CrossValidation.EvidenceRecall;
import io.lorekeeper.evaluator.CrossValidation.FoldBrier;
import io.lorekeeper.evaluator.CrossValidation.FoldChoice;
import io.lorekeeper.evaluator.CrossValidation.FoldF1;
import io.lorekeeper.evaluator.CrossValidation.RecallRow;
import io.lorekeeper.evaluator.CrossValidation.Result;

/** cv.md: a section per dataset, a table per figure, each cross-validated figure beside its in-sample one. */
final class CrossValidationMarkdown {

    private CrossValidationMarkdown() {}

    static String of(Result result) {
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
                                            .map(CrossValidationMarkdown::fmt)
                                            .toList())
                            + ")");
        }
        row(out, "gap (dev − cross-validated)", "", "", f.gap());
        row(out, "oracle (best candidate)", "", "all folds", f.oracle());
        out.append("\n");
        perFold(out, f.perFold());
    }

    private static void perFold(StringBuilder out, List<FoldF1> perFold) {
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
        for (FoldF1 fold : perFold) {
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
                    String.format(Locale.ROOT, "%+.3f", a.delta()));
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
}
