package io.lorekeeper.evaluator;

import java.util.List;
import java.util.Locale;

import io.lorekeeper.evaluator.Report.Judging;
import io.lorekeeper.evaluator.Report.OwnWording;
import io.lorekeeper.evaluator.Report.Row;

/**
 * report.md: a table per strategy (a row per category, then overall), what the columns mean, and the notes on the
 * judge, the adversarial questions in the service's own words, the calibration and selective answering.
 */
final class ReportMarkdown {

    private ReportMarkdown() {}

    static String of(Report report) {
        StringBuilder out = new StringBuilder();
        out.append("## Evaluation: ")
                .append(report.dataset())
                .append("\n\n")
                .append(report.startedAt())
                .append(" to ")
                .append(report.finishedAt())
                .append(", ")
                .append(report.items().stream()
                        .map(i -> i.asked().itemId())
                        .distinct()
                        .count())
                .append(" questions, strategies ")
                .append(String.join(", ", report.strategies()))
                .append("\n\n");
        // The judge column only when some answer was actually graded: no empty column in unjudged runs.
        boolean judgeColumn = report.items().stream().anyMatch(i -> i.graded().judge() != null);
        for (String strategy : report.strategies()) {
            strategyTable(out, report.summary(), strategy, judgeColumn);
        }
        out.append(
                "Evidence recall: share of gold evidence turns/sentences at least half inside the context the strategy used "
                        + "(retrieved/context spans of the trace plus the citations); in parentheses the number of questions with resolvable gold "
                        + "evidence when fewer than n. Answer in context: share of questions one of whose gold answers appears, as whole "
                        + "words, in that context.\n\n"
                        + "Cost, per question: LLM calls include answers from the service's response cache (cache hits); LLM tokens and "
                        + "prompt / completion are the tokens the provider billed, so a cache hit adds none. Context tokens: tokens of that "
                        + "context, overlaps once. Compaction: the share of the document put before the model, as the strategy measures it in "
                        + "its trace (MindGraph: graph tokens ÷ document tokens), else context tokens ÷ document tokens.\n");
        appendNotes(out, report);
        return out.toString();
    }

    /** One strategy's table: a row per category, then the overall row. */
    private static void strategyTable(StringBuilder out, List<Row> summary, String strategy, boolean judgeColumn) {
        out.append("### ")
                .append(strategy)
                .append("\n\n")
                .append("| category | n | failed | F1 | EM | ROUGE-L | accuracy | ")
                .append(judgeColumn ? "judge | " : "")
                .append(
                        "evidence recall | answer in context | LLM calls | LLM tokens | prompt / completion | cache hits | context tokens | compaction | ")
                .append("p50 latency ms | p95 latency ms |\n")
                .append("|---|---:|---:|---:|---:|---:|---:|")
                .append(judgeColumn ? "---:|" : "")
                .append("---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Row r : summary) {
            if (r.strategy().equals(strategy)) {
                row(out, r, judgeColumn);
            }
        }
        out.append('\n');
    }

    private static void row(StringBuilder out, Row r, boolean judgeColumn) {
        out.append("| ")
                .append(r.category().equals(Report.OVERALL) ? "**overall**" : r.category())
                .append(" | ")
                .append(r.n())
                .append(" | ")
                .append(r.failed())
                .append(" | ")
                .append(fmt(r.f1()))
                .append(" | ")
                .append(fmt(r.em()))
                .append(" | ")
                .append(fmt(r.rougeL()))
                .append(" | ")
                .append(fmt(r.accuracy()))
                .append(" | ")
                .append(judgeColumn ? fmt(r.judge()) + " | " : "")
                .append(fmt(r.evidenceRecall()))
                .append(r.evidenceItems() < r.n() && r.evidenceRecall() != null ? " (" + r.evidenceItems() + ")" : "")
                .append(" | ")
                .append(fmt(r.answerInContext()))
                .append(" | ")
                .append(String.format(Locale.ROOT, "%.1f", r.llmCalls()))
                .append(" | ")
                .append(String.format(Locale.ROOT, "%.0f", r.llmTokens()))
                .append(" | ")
                .append(
                        r.promptTokens() == null
                                ? ""
                                : String.format(Locale.ROOT, "%.0f / %.0f", r.promptTokens(), r.completionTokens()))
                .append(" | ")
                .append(r.cacheHits() == null ? "" : String.format(Locale.ROOT, "%.1f", r.cacheHits()))
                .append(" | ")
                .append(r.contextTokens() == null ? "" : String.format(Locale.ROOT, "%.0f", r.contextTokens()))
                .append(" | ")
                .append(r.compaction() == null ? "" : String.format(Locale.ROOT, "%.4f", r.compaction()))
                .append(" | ")
                .append(r.p50LatencyMs())
                .append(" | ")
                .append(r.p95LatencyMs())
                .append(" |\n");
    }

    /** What the judge did, adversarial questions in the service's own words, and the calibration. */
    private static void appendNotes(StringBuilder out, Report report) {
        Judging judging = report.judging();
        List<OwnWording> ownWording = report.ownWording();
        List<Row> summary = report.summary();
        if (judging != null) {
            out.append("\nJudge: the LLM judge (role judge) graded ")
                    .append(judging.judged())
                    .append(" answers as correct (1) or incorrect (0)")
                    .append(
                            judging.failed() > 0
                                    ? "; it could not grade " + judging.failed() + " (left out of the judge mean)"
                                    : "")
                    .append(". Judging took ")
                    .append(judging.calls())
                    .append(" LLM calls and ")
                    .append(String.format(Locale.ROOT, "%,d", judging.tokens()))
                    .append(" tokens, not counted in the LLM columns above.\n");
        }
        if (ownWording != null && !ownWording.isEmpty()) {
            out.append(
                    "\nAdversarial questions (category 5) are scored as LoCoMo scores them: correct only when the answer contains "
                            + "\"no information available\" or \"not mentioned\". This service declines in its own words (\"the information is "
                            + "not available\"), which that match does not accept; counting those as well (not comparable with published "
                            + "numbers): ");
            out.append(String.join(
                            ", ",
                            ownWording.stream()
                                    .map(w -> String.format(
                                            Locale.ROOT,
                                            "%s %.3f (official %.3f, n=%d)",
                                            w.strategy(),
                                            w.ownWording(),
                                            w.official(),
                                            w.n()))
                                    .toList()))
                    .append(".\n");
        }
        List<Row> calibrated = summary.stream()
                .filter(r -> r.category().equals(Report.OVERALL) && r.brier() != null)
                .toList();
        if (!calibrated.isEmpty()) {
            out.append(
                    "\nConfidence calibration (Brier score of the reported confidence against the answer being right: the judge's "
                            + "verdict, else a score of at least 0.5; 0 is perfect, 0.25 is a constant 0.5): ");
            out.append(String.join(
                            ", ",
                            calibrated.stream()
                                    .map(r -> r.strategy() + " " + String.format(Locale.ROOT, "%.3f", r.brier()))
                                    .toList()))
                    .append(".\n");
        }
        selective(summary, out);
    }

    private static void selective(List<Row> summary, StringBuilder out) {
        // every category: figures chosen on one (a novel, a fold) are reported on the others
        List<Row> selective =
                summary.stream().filter(r -> r.selective() != null).toList();
        if (selective.isEmpty()) {
            return;
        }
        out.append("\nSelective answering (a short answer only when certain enough, else the passages to read): ");
        out.append(String.join(
                        "; ",
                        selective.stream()
                                .map(r -> String.format(
                                        Locale.ROOT,
                                        "%s (%s, n=%d): short answers %s of questions, right %s; answer or passages"
                                                + " hold it %s; confidence AUROC %s",
                                        r.strategy(),
                                        r.category(),
                                        r.n(),
                                        fmt(r.selective().shortAnswers()),
                                        fmt(r.selective().shortRight()),
                                        fmt(r.selective().holdsAnswer()),
                                        fmt(r.selective().auroc())))
                                .toList()))
                .append(".\n");
    }

    private static String fmt(Double d) {
        return d == null ? "" : String.format(Locale.ROOT, "%.3f", d);
    }
}
