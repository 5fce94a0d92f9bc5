package io.lorekeeper.evaluator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.lorekeeper.evaluator.EvalRunner.Asked;
import io.lorekeeper.evaluator.EvalRunner.Cost;
import io.lorekeeper.evaluator.EvalRunner.Evidence;
import io.lorekeeper.evaluator.EvalRunner.ItemResult;
import io.lorekeeper.evaluator.EvalRunner.Reply;
import io.lorekeeper.evaluator.EvalRunner.Scores;
import io.lorekeeper.evaluator.EvalRunner.Timings;
import io.lorekeeper.evaluator.Metrics.DocSpan;
import io.lorekeeper.text.TokenCounter;
import tools.jackson.databind.json.JsonMapper;

class ReportTest {

    private static ItemResult result(
            String id,
            String category,
            String strategy,
            String status,
            Double f1,
            Double recall,
            long calls,
            long tokens,
            long latency) {
        return new ItemResult(
                new Asked(id, category, strategy, "question", List.of("gold"), null),
                new Reply("q-" + id, status, "answer", null, null, null, null, null),
                new Scores(f1, f1 == null ? null : (f1 == 1.0 ? 1.0 : 0.0), null, null),
                new Evidence(recall, 1, 0, 3, null, null),
                new Cost(calls, tokens, null, null, null),
                new Timings(latency, null));
    }

    private static ItemResult answered(String id, String category, String strategy, String status, String answer) {
        double f1 = Metrics.locomoF1(answer, "", Integer.parseInt(category));
        return new ItemResult(
                new Asked(id, category, strategy, "question", List.of(""), null),
                new Reply("q-" + id, status, answer, null, null, null, null, null),
                new Scores("DONE".equals(status) ? f1 : null, null, null, null),
                new Evidence(null, 0, 0, 0, null, null),
                new Cost(0, 0, null, null, null),
                new Timings(10, null));
    }

    @Test
    void locomoAdversarialScoresAreOfficialAndTheOwnWordingVariantIsReportedApart() {
        List<ItemResult> items = List.of(
                answered("a", "5", "rag", "DONE", "That is not mentioned in the conversation."),
                answered("b", "5", "rag", "DONE", "The information is not available in the documents."),
                answered("c", "5", "rag", "DONE", "She went to Paris."),
                answered("d", "5", "rag", "FAILED", null),
                answered("e", "4", "rag", "DONE", "The information is not available in the documents."));

        Report report = Report.of("locomo", List.of("rag"), Instant.EPOCH, Instant.EPOCH, items);

        Report.Row adversarial = report.summary().stream()
                .filter(r -> r.category().equals("5"))
                .findFirst()
                .orElseThrow();
        assertThat(adversarial.f1()).as("the benchmark's own score: 1 of 4").isCloseTo(0.25, within(1e-9));
        assertThat(report.ownWording()).singleElement().satisfies(w -> {
            assertThat(w.strategy()).isEqualTo("rag");
            assertThat(w.n()).isEqualTo(4);
            assertThat(w.official()).isCloseTo(0.25, within(1e-9));
            assertThat(w.ownWording())
                    .as("2 of 4: the own wording counts, the failed question does not")
                    .isCloseTo(0.5, within(1e-9));
        });
        assertThat(report.markdown())
                .contains("rag 0.500 (official 0.250, n=4)")
                .contains("not comparable with published numbers");
        assertThat(Report.of("hotpotqa", List.of("rag"), Instant.EPOCH, Instant.EPOCH, items)
                        .ownWording())
                .isEmpty();
        assertThat(Report.of("hotpotqa", List.of("rag"), Instant.EPOCH, Instant.EPOCH, items)
                        .markdown())
                .doesNotContain("not comparable with published numbers");
    }

    @Test
    void summarisesPerStrategyAndCategoryAndWritesJsonMarkdownAndSvg(@TempDir Path dir) throws Exception {
        List<ItemResult> items = List.of(
                result("a", "1", "rag", "DONE", 1.0, 1.0, 1, 1000, 100),
                result("b", "1", "rag", "DONE", 0.5, 0.0, 1, 2000, 300),
                result("c", "2", "rag", "FAILED", null, null, 0, 0, 200),
                result("a", "1", "extractive", "DONE", 0.25, 0.5, 0, 0, 50));
        Report report = Report.of("toy", List.of("extractive", "rag"), Instant.EPOCH, Instant.EPOCH, items);
        Report.Row ragOverall = report.summary().stream()
                .filter(r -> r.strategy().equals("rag") && r.category().equals("overall"))
                .findFirst()
                .orElseThrow();
        assertThat(ragOverall.n()).isEqualTo(3);
        assertThat(ragOverall.failed()).isEqualTo(1);
        // the failed question counts as F1 0: (1 + 0.5 + 0) / 3
        assertThat(ragOverall.f1()).isCloseTo(0.5, within(1e-9));
        // evidence recall only over questions that have it: (1 + 0) / 2
        assertThat(ragOverall.evidenceRecall()).isCloseTo(0.5, within(1e-9));
        assertThat(ragOverall.llmTokens()).isCloseTo(1000.0, within(1e-9));
        assertThat(ragOverall.p50LatencyMs()).isEqualTo(200);
        assertThat(ragOverall.p95LatencyMs()).isEqualTo(300);
        assertThat(report.summary())
                .extracting(r -> r.strategy() + "/" + r.category())
                .containsExactly("extractive/1", "extractive/overall", "rag/1", "rag/2", "rag/overall");

        report.write(dir);
        assertThat(JsonMapper.builder()
                        .build()
                        .readTree(Files.readString(dir.resolve("report.json")))
                        .path("items"))
                .hasSize(4);
        String md = Files.readString(dir.resolve("report.md"));
        assertThat(md).contains("### rag").contains("| **overall** | 3 | 1 | 0.500 |");
        String svg = Files.readString(dir.resolve("accuracy-vs-tokens.svg"));
        DocumentBuilderFactory.newInstance()
                .newDocumentBuilder()
                .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        assertThat(svg).contains(">rag (0.500)<").contains(">extractive (0.250)<");
    }

    @Test
    void theJudgeMeanCountsFailedQuestionsAsWrongAndShowsOnlyWhenSomethingWasJudged() {
        List<ItemResult> items = List.of(
                result("a", "1", "rag", "DONE", 1.0, null, 1, 100, 10)
                        .judged(new Judgement("correct", "same", null, 1, 300)),
                result("b", "1", "rag", "DONE", 0.5, null, 1, 100, 10)
                        .judged(new Judgement(null, null, "boom", 2, 500)),
                result("c", "2", "rag", "FAILED", null, null, 0, 0, 10),
                result("d", "2", "rag", "DONE", 0.0, null, 1, 100, 10)
                        .judged(new Judgement("incorrect", "no", null, 1, 200)));
        Report report = Report.of("toy", List.of("rag"), Instant.EPOCH, Instant.EPOCH, items, true);
        Report.Row overall = report.summary().stream()
                .filter(r -> r.category().equals("overall"))
                .findFirst()
                .orElseThrow();
        // a (1) + d (0) + failed c (0); b's judge failed and is left out
        assertThat(overall.judge()).isCloseTo(1.0 / 3, within(1e-9));
        assertThat(report.summary().getFirst().judge()).isEqualTo(1.0);
        assertThat(overall.llmTokens())
                .as("the judge's tokens are not the strategy's")
                .isCloseTo(75.0, within(1e-9));
        assertThat(report.judging()).isEqualTo(new Report.Judging(2, 1, 4, 1000));
        assertThat(report.markdown())
                .contains("| accuracy | judge | evidence recall |")
                .contains("| 0.333 |")
                .contains("1,000 tokens");

        Report unjudged = Report.of("toy", List.of("rag"), Instant.EPOCH, Instant.EPOCH, items.subList(2, 3), false);
        assertThat(unjudged.judging()).isNull();
        assertThat(unjudged.summary().getFirst().judge()).isNull();
        assertThat(unjudged.markdown()).doesNotContain("judge");
    }

    private static ItemResult costed(
            String id, String category, Long prompt, Long completion, Long hits, Double compaction) {
        long tokens = prompt == null ? 500 : prompt + completion;
        return new ItemResult(
                new Asked(id, category, "rag", "question", List.of("gold"), null),
                new Reply("q-" + id, "DONE", "answer", null, null, null, null, null),
                new Scores(1.0, 1.0, null, null),
                new Evidence(null, 1, 0, 3, 100, compaction),
                new Cost(2, tokens, prompt, completion, hits),
                new Timings(10, null));
    }

    /** The result with the confidence the strategy would have reported. */
    private static ItemResult withConfidence(ItemResult r, double confidence) {
        Reply reply = r.reply();
        return new ItemResult(
                r.asked(),
                new Reply(
                        reply.questionId(),
                        reply.status(),
                        reply.answer(),
                        reply.choiceIndex(),
                        reply.error(),
                        confidence,
                        reply.confidenceFeatures(),
                        reply.answerCandidates()),
                r.scores(),
                r.evidence(),
                r.cost(),
                r.timings(),
                r.graded());
    }

    @Test
    void theCostColumnsAverageTheTokenSplitCacheHitsAndCompactionPerStrategyAndCategory() {
        List<ItemResult> items = List.of(
                costed("a", "1", 900L, 100L, 0L, 0.25),
                costed("b", "1", 300L, 50L, 2L, 0.05),
                costed("c", "2", 600L, 30L, 1L, null),
                // from a service without per-question usage: no split, left out of those means
                costed("d", "2", null, null, null, 0.5));
        Report report = Report.of("toy", List.of("rag"), Instant.EPOCH, Instant.EPOCH, items);

        Report.Row one = report.summary().getFirst();
        assertThat(one.category()).isEqualTo("1");
        assertThat(one.promptTokens()).isCloseTo(600.0, within(1e-9));
        assertThat(one.completionTokens()).isCloseTo(75.0, within(1e-9));
        assertThat(one.cacheHits()).isCloseTo(1.0, within(1e-9));
        assertThat(one.compaction()).isCloseTo(0.15, within(1e-9));
        Report.Row two = report.summary().get(1);
        assertThat(two.promptTokens()).isCloseTo(600.0, within(1e-9));
        assertThat(two.compaction()).isCloseTo(0.5, within(1e-9));
        Report.Row overall = report.summary().getLast();
        assertThat(overall.category()).isEqualTo(Report.OVERALL);
        assertThat(overall.promptTokens()).isCloseTo(600.0, within(1e-9));
        assertThat(overall.completionTokens()).isCloseTo(60.0, within(1e-9));
        assertThat(overall.cacheHits()).isCloseTo(1.0, within(1e-9));
        assertThat(overall.compaction()).isCloseTo(0.8 / 3, within(1e-9));
        assertThat(overall.llmTokens()).isCloseTo((1000 + 350 + 630 + 500) / 4.0, within(1e-9));
        assertThat(report.markdown())
                .contains(
                        "| LLM calls | LLM tokens | prompt / completion | cache hits | context tokens | compaction | p50 latency ms |")
                .contains("| 2.0 | 675 | 600 / 75 | 1.0 | 100 | 0.1500 | 10 | 10 |")
                .contains("Compaction: ");

        Report without = Report.of("toy", List.of("rag"), Instant.EPOCH, Instant.EPOCH, items.subList(3, 4));
        assertThat(without.summary().getFirst().promptTokens()).isNull();
        assertThat(without.markdown()).contains("| 2.0 | 500 |  |  | 100 | 0.5000 |");
    }

    @Test
    void compactionIsTheStrategysOwnFigureWhenItsTraceHasOneElseContextOverDocumentTokens() {
        var json = JsonMapper.builder().build();
        var mindgraph = json.readTree("""
                {"events": [
                  {"type": "graph", "payload": {"documentId": "other", "graphTokens": 9, "documentTokens": 10, "compaction": 0.9}},
                  {"type": "graph", "payload": {"documentId": "d", "graphTokens": 30, "documentTokens": 1000, "compaction": 0.03}},
                  {"type": "tool", "payload": {"tool": "lookup_source", "start": 0, "end": 4000}}]}""");
        assertThat(TraceSpans.compaction(mindgraph, "d")).isEqualTo(0.03);
        assertThat(TraceSpans.compaction(mindgraph, "elsewhere"))
                .as("no event names it: the first figure")
                .isEqualTo(0.9);
        var rag = json.readTree("""
                {"events": [{"type": "retrieve", "payload": {"passages": [{"start": 0, "end": 10}]}}]}""");
        assertThat(TraceSpans.compaction(rag, "d")).isNull();

        assertThat(Compaction.ratio(0.03, 500, 1000))
                .as("the trace's figure wins")
                .isEqualTo(0.03);
        assertThat(Compaction.ratio(null, 250, 1000)).isEqualTo(0.25);
        assertThat(Compaction.ratio(null, 0, 0))
                .as("an empty document has no ratio")
                .isNull();
    }

    @Test
    void contextTokensCountEachPartOfTheDocumentOnceAndOnlyThisDocuments() {
        String text =
                "The harbour master of Kelby was Ida Marsh. She kept the tide tables for thirty years. The chandler sold rope.";
        int first = text.indexOf(" She");
        int second = text.indexOf(" The chandler");
        List<DocSpan> spans = List.of(
                new DocSpan("d", 0, 20),
                new DocSpan("d", 10, first), // overlapping: the first sentence once
                new DocSpan("d", 4, 8), // inside
                new DocSpan("d", second, text.length() + 50), // clipped to the text
                new DocSpan("other", first, second)); // another document's span
        int expected = TokenCounter.count(text, 0, first) + TokenCounter.count(text, second, text.length());

        assertThat(Compaction.contextTokens(text, "d", spans)).isEqualTo(expected);
        assertThat(Compaction.contextTokens(text, "d", List.of())).isZero();
        assertThat(Compaction.contextTokens(
                        text, "d", List.of(new DocSpan("d", 0, text.length()), new DocSpan("d", 5, 9))))
                .isEqualTo(TokenCounter.count(text));
    }

    @Test
    void anAnswersCostIsTheViewsUsageElseTheTracesUnsplitTotal() {
        var json = JsonMapper.builder().build();
        var trace = json.readTree("""
                {"events": [{"type": "status", "payload": {"status": "DONE", "llmCalls": 3, "llmTokens": 4567}}]}""");
        var view = json.readTree("""
                {"status": "DONE", "usage": {"calls": 3, "promptTokens": 1200, "completionTokens": 80, "cacheHits": 1, "llmMs": 900}}""");

        assertThat(EvalRunner.Cost.of(view, trace)).isEqualTo(new EvalRunner.Cost(3, 1280, 1200L, 80L, 1L));
        assertThat(EvalRunner.Cost.of(json.readTree("{\"status\": \"DONE\"}"), trace))
                .isEqualTo(new EvalRunner.Cost(3, 4567, null, null, null));
    }

    @Test
    void percentiles() {
        assertThat(Report.percentile(List.of(10L, 20L, 30L, 40L), 50)).isEqualTo(20);
        assertThat(Report.percentile(List.of(10L, 20L, 30L, 40L), 95)).isEqualTo(40);
        assertThat(Report.percentile(List.of(), 50)).isZero();
    }

    @Test
    void traceSpansTakeRetrievedAndContextSpansAndTheFinalUsage() {
        var trace = JsonMapper.builder().build().readTree("""
                {"events": [
                  {"type": "status", "payload": {"status": "RUNNING"}},
                  {"type": "retrieve", "payload": {"passages": [{"documentId": "d", "chunk": 1, "start": 0, "end": 10}]}},
                  {"type": "bridge", "payload": {"newHits": [{"documentId": "d", "start": 20, "end": 30}]}},
                  {"type": "sentences", "payload": {"top": [{"start": 40, "end": 50}]}},
                  {"type": "context", "payload": {"spans": [{"start": 60, "end": 70}]}},
                  {"type": "status", "payload": {"status": "DONE", "llmCalls": 3, "llmTokens": 4567}}]}""");
        assertThat(TraceSpans.context(trace, "x"))
                .containsExactly(new DocSpan("d", 0, 10), new DocSpan("d", 20, 30), new DocSpan("x", 60, 70));
        assertThat(TraceSpans.usage(trace)).containsExactly(3, 4567);
    }

    @Test
    void traceSpansReadEventsNamedByTheirFamily() {
        var trace = JsonMapper.builder().build().readTree("""
                {"events": [
                  {"type": "rag.retrieve", "payload": {"passages": [{"documentId": "d", "chunk": 1, "start": 0, "end": 10}]}},
                  {"type": "extractive.bridge", "payload": {"newHits": [{"documentId": "d", "start": 20, "end": 30}]}},
                  {"type": "extractive.sentences", "payload": {"top": [{"start": 40, "end": 50}]}},
                  {"type": "gam.context", "payload": {"spans": [{"start": 60, "end": 70}]}},
                  {"type": "run.status", "payload": {"status": "DONE", "llmCalls": 2, "llmTokens": 99}}]}""");
        assertThat(TraceSpans.context(trace, "x"))
                .containsExactly(new DocSpan("d", 0, 10), new DocSpan("d", 20, 30), new DocSpan("x", 60, 70));
        assertThat(TraceSpans.usage(trace)).containsExactly(2, 99);
    }

    @Test
    void brierScoresTheConfidenceAgainstTheJudgeOrAHeadlineScoreOfAtLeastHalf() {
        List<ItemResult> items = List.of(
                withConfidence(
                        result("a", "1", "extractive", "DONE", 1.0, null, 0, 0, 10), 0.9), // right: (0.9-1)^2 = 0.01
                withConfidence(result("b", "1", "extractive", "DONE", 0.2, null, 0, 0, 10), 0.6), // wrong: 0.36
                withConfidence(
                        result("c", "1", "extractive", "DONE", 0.0, null, 0, 0, 10)
                                .judged(new Judgement("correct", "same meaning", null, 1, 50)),
                        0.5), // the judge says right although F1 is 0: 0.25
                result("d", "1", "extractive", "DONE", 1.0, null, 0, 0, 10), // no confidence: left out
                withConfidence(
                        result("e", "1", "extractive", "FAILED", null, null, 0, 0, 10), 0.9)); // not answered: left out

        Report report = Report.of("t", List.of("extractive"), Instant.EPOCH, Instant.EPOCH, items);

        Report.Row overall = report.summary().stream()
                .filter(r -> r.category().equals(Report.OVERALL))
                .findFirst()
                .orElseThrow();
        assertThat(overall.brier()).isCloseTo((0.01 + 0.36 + 0.25) / 3, within(1e-9));
        assertThat(report.markdown()).contains("Confidence calibration").contains("extractive 0.207");
        assertThat(Report.of("t", List.of("extractive"), Instant.EPOCH, Instant.EPOCH, items.subList(3, 5))
                        .markdown())
                .doesNotContain("Confidence calibration");
    }

    /** A reply of the given kind, with a confidence; a passage answer holds the gold answer or not. */
    private static ItemResult kind(String id, String kind, double f1, Boolean holds, double confidence) {
        ItemResult r = result(id, "1", "extractive", "DONE", f1, null, 0, 0, 10);
        Reply reply = new Reply(
                r.reply().questionId(), "DONE", "answer", null, null, confidence, null, null, kind, holds, null, null);
        return new ItemResult(r.asked(), reply, r.scores(), r.evidence(), r.cost(), r.timings());
    }

    @Test
    void selectiveAnsweringCountsShortAnswersAndJudgesPassagesByWhetherTheyHoldTheAnswer() {
        List<ItemResult> items = List.of(
                kind("a", "span", 1.0, true, 0.9), // a right short answer
                kind("b", "span", 0.0, false, 0.6), // a wrong one
                kind("c", "passage", 0.1, true, 0.7), // passages that hold it: right, although F1 is low
                kind("d", "passage", 0.0, false, 0.2)); // passages that do not

        Report.Row overall =
                Report.of("t", List.of("extractive"), Instant.EPOCH, Instant.EPOCH, items).summary().stream()
                        .filter(r -> r.category().equals(Report.OVERALL))
                        .findFirst()
                        .orElseThrow();

        assertThat(overall.selective().shortAnswers()).isEqualTo(0.5);
        assertThat(overall.selective().shortRight()).isEqualTo(0.5);
        assertThat(overall.selective().holdsAnswer()).isEqualTo(0.5);
        // right: a (0.9) and c (0.7); wrong: b (0.6) and d (0.2): every right one above every wrong one
        assertThat(overall.selective().auroc()).isEqualTo(1.0);
        assertThat(overall.brier()).isCloseTo((0.01 + 0.36 + 0.09 + 0.04) / 4, within(1e-9));
        // a strategy whose answers say no kind has no such figures
        assertThat(Report.of(
                                "t",
                                List.of("extractive"),
                                Instant.EPOCH,
                                Instant.EPOCH,
                                List.of(result("e", "1", "extractive", "DONE", 1.0, null, 0, 0, 10)))
                        .summary()
                        .getFirst()
                        .selective())
                .isNull();
        // nor one whose answers a model wrote
        assertThat(Report.of(
                                "t",
                                List.of("extractive"),
                                Instant.EPOCH,
                                Instant.EPOCH,
                                List.of(kind("f", "generated", 1.0, true, 0.9)))
                        .summary()
                        .getFirst()
                        .selective())
                .isNull();
    }
}
