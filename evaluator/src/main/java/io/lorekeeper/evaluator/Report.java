package io.lorekeeper.evaluator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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
 * Here: the records (report.json) and the summary's figures; report.md is laid out by {@link ReportMarkdown}, the
 * chart by {@link ScoreTokensChart}.
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

    /** report.md (see {@link ReportMarkdown}). */
    public String markdown() {
        return ReportMarkdown.of(this);
    }

    /** accuracy-vs-tokens.svg (see {@link ScoreTokensChart}). */
    public String svg() {
        return ScoreTokensChart.of(this);
    }
}
