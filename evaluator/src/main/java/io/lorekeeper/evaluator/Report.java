package io.lorekeeper.evaluator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.Function;

import io.lorekeeper.evaluator.EvalRunner.ItemResult;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * An evaluation's result: every item, and a summary per strategy and category (plus "overall").
 * Averages skip items where a metric does not apply; {@code failed} counts questions that did not
 * finish DONE (they score 0 in F1/EM/accuracy and with the judge, since a failure is a wrong answer).
 *
 * @param judging what the LLM judge did and cost, when the run was judged; else null
 * @param ownWording LoCoMo only: adversarial questions scored with this service's own way of declining
 *                   as well; empty for other datasets
 */
public record Report(
        String dataset,
        List<String> strategies,
        Instant startedAt,
        Instant finishedAt,
        List<Row> summary,
        List<ItemResult> items,
        Judging judging,
        List<OwnWording> ownWording) {

    public static final String OVERALL = "overall";

    /**
     * One strategy on one category. Averages are per question; latency is the client's wall time per question.
     * Tokens are those the provider billed: a call answered from the service's response cache counts in
     * {@code llmCalls} and {@code cacheHits} but adds no tokens.
     *
     * @param judge mean LLM judge score (answers the judge could not grade left out); null when not judged
     * @param promptTokens mean over the questions whose service reported the split (null when none did); likewise
     *                     {@code completionTokens} and {@code cacheHits}
     * @param compaction mean share of the document put before the model: the strategy's own figure from its trace
     *                   (MindGraph: graph tokens ÷ document tokens), else context tokens ÷ document tokens
     * @param brier Brier score of the strategy's confidence against its answers being right (see {@link Calibration});
     *              null when no answer came with a confidence
     * @param selective how a strategy that answers with passages when unsure did; null when no answer was a span or passages
     */
    public record Row(
            String strategy,
            String category,
            int n,
            int failed,
            Double f1,
            Double em,
            Double rougeL,
            Double accuracy,
            Double judge,
            Double evidenceRecall,
            int evidenceItems,
            Double answerInContext,
            double llmCalls,
            double llmTokens,
            Double promptTokens,
            Double completionTokens,
            Double cacheHits,
            Double contextTokens,
            Double compaction,
            long p50LatencyMs,
            long p95LatencyMs,
            Double brier,
            Selective selective) {

        /** The headline score: mean F1 (or choice accuracy when the category has no F1). */
        public Double score() {
            return f1 != null ? f1 : accuracy;
        }
    }

    /**
     * The LLM judge's work over the whole run: answers graded, answers it failed to grade (no score;
     * the reason is in each item's {@code judgement}), and its calls and tokens, which are the
     * evaluation's cost, not any strategy's, so they are not in {@code llmCalls}/{@code llmTokens}.
     */
    public record Judging(int judged, int failed, long calls, long tokens) {

        static Judging of(List<ItemResult> items) {
            List<Judgement> all = items.stream()
                    .map(i -> i.graded().judgement())
                    .filter(Objects::nonNull)
                    .toList();
            return new Judging(
                    (int) all.stream().filter(j -> j.score() != null).count(),
                    (int) all.stream().filter(j -> j.score() == null).count(),
                    all.stream().mapToLong(Judgement::calls).sum(),
                    all.stream().mapToLong(Judgement::tokens).sum());
        }
    }

    /**
     * One strategy's LoCoMo adversarial (category 5) questions scored two ways: as the benchmark does
     * ({@code official}, the F1 of the category's row) and also counting answers that decline in this
     * service's own words ("not available"), which the benchmark's phrase match does not accept. Only
     * {@code official} compares with published numbers. Failed questions count 0 in both.
     */
    public record OwnWording(String strategy, int n, double official, double ownWording) {

        static List<OwnWording> of(String dataset, List<String> strategies, List<ItemResult> items) {
            if (!"locomo".equals(dataset)) {
                return List.of();
            }
            List<OwnWording> out = new ArrayList<>();
            for (String strategy : strategies) {
                List<ItemResult> adversarial = items.stream()
                        .filter(i -> i.asked().strategy().equals(strategy)
                                && i.asked().category().equals("5")
                                && !strategy.startsWith(EvalRunner.SEARCH_PREFIX))
                        .toList();
                if (adversarial.isEmpty()) {
                    continue;
                }
                double official = adversarial.stream()
                        .mapToDouble(i -> answered(i)
                                        && Metrics.saysNotAvailable(i.reply().answer())
                                ? 1
                                : 0)
                        .average()
                        .orElse(0);
                double own = adversarial.stream()
                        .mapToDouble(i -> answered(i)
                                        && Metrics.declinesInOwnWording(
                                                i.reply().answer())
                                ? 1
                                : 0)
                        .average()
                        .orElse(0);
                out.add(new OwnWording(strategy, adversarial.size(), official, own));
            }
            return out;
        }

        private static boolean answered(ItemResult item) {
            return "DONE".equals(item.reply().status());
        }
    }

    static Report of(
            String dataset, List<String> strategies, Instant started, Instant finished, List<ItemResult> items) {
        return of(dataset, strategies, started, finished, items, false);
    }

    /** @param judged whether the run had the LLM judge grade its answers */
    static Report of(
            String dataset,
            List<String> strategies,
            Instant started,
            Instant finished,
            List<ItemResult> items,
            boolean judged) {
        List<Row> rows = new ArrayList<>();
        TreeSet<String> categories = new TreeSet<>();
        items.forEach(i -> categories.add(i.asked().category()));
        for (String strategy : strategies) {
            List<ItemResult> mine = items.stream()
                    .filter(i -> i.asked().strategy().equals(strategy))
                    .toList();
            for (String category : categories) {
                List<ItemResult> cell = mine.stream()
                        .filter(i -> i.asked().category().equals(category))
                        .toList();
                if (!cell.isEmpty()) {
                    rows.add(row(strategy, category, cell, judged));
                }
            }
            if (!mine.isEmpty()) {
                rows.add(row(strategy, OVERALL, mine, judged));
            }
        }
        return new Report(
                dataset,
                strategies,
                started,
                finished,
                rows,
                items,
                judged ? Judging.of(items) : null,
                OwnWording.of(dataset, strategies, items));
    }

    private static Row row(String strategy, String category, List<ItemResult> cell, boolean judged) {
        boolean probe = strategy.startsWith(EvalRunner.SEARCH_PREFIX);
        int failed = (int)
                cell.stream().filter(i -> !"DONE".equals(i.reply().status())).count();
        List<Long> latencies =
                cell.stream().map(i -> i.timings().latencyMs()).sorted().toList();
        return new Row(
                strategy,
                category,
                cell.size(),
                failed,
                probe ? null : meanFailedAsZero(cell, i -> i.scores().f1()),
                probe ? null : meanFailedAsZero(cell, i -> i.scores().em()),
                mean(cell, i -> i.scores().rougeL()),
                probe ? null : meanAccuracy(cell),
                probe || !judged ? null : meanJudge(cell),
                mean(cell, i -> i.evidence().evidenceRecall()),
                (int) cell.stream()
                        .filter(i -> i.evidence().evidenceRecall() != null)
                        .count(),
                mean(cell, i -> i.evidence().answerInContext()),
                cell.stream().mapToLong(i -> i.cost().llmCalls()).average().orElse(0),
                cell.stream().mapToLong(i -> i.cost().llmTokens()).average().orElse(0),
                mean(cell, i -> asDouble(i.cost().promptTokens())),
                mean(cell, i -> asDouble(i.cost().completionTokens())),
                mean(cell, i -> asDouble(i.cost().cacheHits())),
                mean(
                        cell,
                        i -> i.evidence().contextTokens() == null
                                ? null
                                : i.evidence().contextTokens().doubleValue()),
                mean(cell, i -> i.evidence().compaction()),
                percentile(latencies, 50),
                percentile(latencies, 95),
                Calibration.brier(cell),
                Selective.of(cell));
    }

    /**
     * Selective answering (issue #44): a short answer only when it is certain enough, else the passages to read.
     *
     * @param shortAnswers share of the answered questions that got a short answer ({@code answerKind: span})
     * @param shortRight   share of those short answers that are right (see {@link Calibration#right}); null without any
     * @param holdsAnswer  share of the answered questions whose answer or cited passages hold a gold answer
     * @param auroc        how the confidence ranks right answers (short, or passages holding it) above wrong ones
     */
    public record Selective(Double shortAnswers, Double shortRight, Double holdsAnswer, Double auroc) {

        static Selective of(List<ItemResult> cell) {
            // a model's written answer (answerKind generated) is not a choice between a short answer and passages
            List<ItemResult> kinds = cell.stream()
                    .filter(i -> "DONE".equals(i.reply().status())
                            && i.reply().answerKind() != null
                            && !"generated".equals(i.reply().answerKind()))
                    .toList();
            if (kinds.isEmpty()) {
                return null;
            }
            List<ItemResult> spans =
                    kinds.stream().filter(i -> !i.reply().passage()).toList();
            List<Boolean> spanRight = spans.stream()
                    .map(Calibration::right)
                    .filter(java.util.Objects::nonNull)
                    .toList();
            List<Boolean> holds = kinds.stream()
                    .map(i -> i.reply().holdsAnswer())
                    .filter(java.util.Objects::nonNull)
                    .toList();
            return new Selective(
                    (double) spans.size() / kinds.size(), share(spanRight), share(holds), Calibration.auroc(kinds));
        }

        private static Double share(List<Boolean> flags) {
            return flags.isEmpty()
                    ? null
                    : (double) flags.stream().filter(b -> b).count() / flags.size();
        }
    }

    private static Double asDouble(Long value) {
        return value == null ? null : value.doubleValue();
    }

    /** Mean over items the metric applies to; a failed item counts 0 when the metric would have applied. */
    private static Double meanFailedAsZero(List<ItemResult> cell, Function<ItemResult, Double> metric) {
        List<Double> values = new ArrayList<>();
        for (ItemResult i : cell) {
            Double v = metric.apply(i);
            if (v != null) {
                values.add(v);
            } else if (!"DONE".equals(i.reply().status())
                    && !i.asked().gold().isEmpty()
                    && i.asked().answerIndex() == null) {
                values.add(0.0);
            }
        }
        return values.isEmpty()
                ? null
                : values.stream().mapToDouble(Double::doubleValue).average().orElse(0);
    }

    /**
     * Over judged answers, with failed questions as 0 (as for F1); an answer the judge could not
     * grade is left out, and so is a cell where nothing was judged (RULER, items without gold).
     */
    private static Double meanJudge(List<ItemResult> cell) {
        List<Double> values = new ArrayList<>(cell.stream()
                .map(i -> i.graded().judge())
                .filter(Objects::nonNull)
                .toList());
        if (values.isEmpty()) {
            return null;
        }
        cell.stream().filter(i -> !"DONE".equals(i.reply().status())).forEach(i -> values.add(0.0));
        return values.stream().mapToDouble(Double::doubleValue).average().orElse(0);
    }

    private static Double meanAccuracy(List<ItemResult> cell) {
        List<Double> values = cell.stream()
                .filter(i -> i.asked().answerIndex() != null
                        || i.scores().accuracy() != null
                        || i.asked().category().startsWith("niah")
                        || i.asked().category().equals("vt"))
                .map(i -> i.scores().accuracy() == null ? 0.0 : i.scores().accuracy())
                .toList();
        return values.isEmpty()
                ? null
                : values.stream().mapToDouble(Double::doubleValue).average().orElse(0);
    }

    /** The mean of the metric over the values that have it; null when none has. */
    static <T> Double mean(List<T> cell, Function<T, Double> metric) {
        var stats = cell.stream()
                .map(metric)
                .filter(Objects::nonNull)
                .mapToDouble(Double::doubleValue)
                .summaryStatistics();
        return stats.getCount() == 0 ? null : stats.getAverage();
    }

    static long percentile(List<Long> sorted, int p) {
        if (sorted.isEmpty()) {
            return 0;
        }
        int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
    }

    // ---- writers ----

    /** Writes report.json, report.md and accuracy-vs-tokens.svg into the folder; returns the folder. */
    public Path write(Path folder) {
        try {
            Files.createDirectories(folder);
            JsonMapper json = JsonMapper.builder()
                    .enable(SerializationFeature.INDENT_OUTPUT)
                    .build();
            Files.writeString(folder.resolve("report.json"), json.writeValueAsString(this));
            Files.writeString(folder.resolve("report.md"), markdown());
            Files.writeString(folder.resolve("accuracy-vs-tokens.svg"), svg());
            return folder;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String markdown() {
        StringBuilder out = new StringBuilder();
        out.append("## Evaluation: ")
                .append(dataset)
                .append("\n\n")
                .append(startedAt)
                .append(" to ")
                .append(finishedAt)
                .append(", ")
                .append(items.stream().map(i -> i.asked().itemId()).distinct().count())
                .append(" questions, strategies ")
                .append(String.join(", ", strategies))
                .append("\n\n");
        // The judge column only when some answer was actually graded: no empty column in unjudged runs.
        boolean judgeColumn = items.stream().anyMatch(i -> i.graded().judge() != null);
        for (String strategy : strategies) {
            strategyTable(out, strategy, judgeColumn);
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
        appendNotes(out);
        return out.toString();
    }

    /** One strategy's table: a row per category, then the overall row. */
    private void strategyTable(StringBuilder out, String strategy, boolean judgeColumn) {
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
                .append(r.category().equals(OVERALL) ? "**overall**" : r.category())
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
    private void appendNotes(StringBuilder out) {
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
                .filter(r -> r.category().equals(OVERALL) && r.brier() != null)
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

    /**
     * Accuracy (overall score) against LLM tokens per question, one point per strategy. One method:
     * the SVG's elements are written in drawing order, axes first, so it reads top to bottom.
     */
    public String svg() {
        Map<String, Row> overall = new LinkedHashMap<>();
        summary.stream()
                .filter(r -> r.category().equals(OVERALL) && r.score() != null)
                .forEach(r -> overall.put(r.strategy(), r));
        int width = 640;
        int height = 400;
        int left = 70;
        int right = 30;
        int top = 40;
        int bottom = 60;
        double maxTokens = Math.max(
                        1,
                        overall.values().stream()
                                .mapToDouble(Row::llmTokens)
                                .max()
                                .orElse(1))
                * 1.1;
        StringBuilder out = new StringBuilder();
        out.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"")
                .append(width)
                .append("\" height=\"")
                .append(height)
                .append("\" font-family=\"sans-serif\" font-size=\"12\">\n")
                .append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n")
                .append("<text x=\"")
                .append(width / 2)
                .append("\" y=\"22\" text-anchor=\"middle\" font-size=\"14\">")
                .append(escape(dataset))
                .append(": score vs LLM tokens per question</text>\n");
        int plotW = width - left - right;
        int plotH = height - top - bottom;
        out.append(line(left, top + plotH, left + plotW, top + plotH)).append(line(left, top, left, top + plotH));
        for (int i = 0; i <= 5; i++) {
            double v = i / 5.0;
            int y = (int) (top + plotH - v * plotH);
            out.append(line(left - 4, y, left, y))
                    .append(text(left - 8, y + 4, String.format(Locale.ROOT, "%.1f", v), "end"));
            double t = maxTokens * i / 5.0;
            int x = (int) (left + plotW * i / 5.0);
            out.append(line(x, top + plotH, x, top + plotH + 4))
                    .append(text(x, top + plotH + 18, String.format(Locale.ROOT, "%.0f", t), "middle"));
        }
        out.append(text(left + plotW / 2, height - 15, "LLM tokens per question (mean)", "middle"));
        out.append("<text x=\"18\" y=\"")
                .append(top + plotH / 2)
                .append("\" text-anchor=\"middle\" transform=\"rotate(-90 18 ")
                .append(top + plotH / 2)
                .append(")\">score (F1 or accuracy, overall)</text>\n");
        String[] colours = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"};
        int c = 0;
        for (Row r : overall.values()) {
            int x = (int) (left + plotW * r.llmTokens() / maxTokens);
            int y = (int) (top + plotH - Math.max(0, Math.min(1, r.score())) * plotH);
            String colour = colours[c++ % colours.length];
            out.append("<circle cx=\"")
                    .append(x)
                    .append("\" cy=\"")
                    .append(y)
                    .append("\" r=\"6\" fill=\"")
                    .append(colour)
                    .append("\"/>\n")
                    .append(text(
                            x + 9, y - 8, r.strategy() + String.format(Locale.ROOT, " (%.3f)", r.score()), "start"));
        }
        return out.append("</svg>\n").toString();
    }

    private static String line(int x1, int y1, int x2, int y2) {
        return "<line x1=\"" + x1 + "\" y1=\"" + y1 + "\" x2=\"" + x2 + "\" y2=\"" + y2 + "\" stroke=\"black\"/>\n";
    }

    private static String text(int x, int y, String s, String anchor) {
        return "<text x=\"" + x + "\" y=\"" + y + "\" text-anchor=\"" + anchor + "\">" + escape(s) + "</text>\n";
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
