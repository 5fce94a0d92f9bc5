package io.lorekeeper.eval;

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

import io.lorekeeper.eval.EvalRunner.ItemResult;
import io.lorekeeper.eval.Metrics.DocSpan;

import tools.jackson.databind.json.JsonMapper;

class ReportTest {

    private static ItemResult result(String id, String category, String strategy, String status, Double f1, Double recall,
            long calls, long tokens, long latency) {
        return new ItemResult(id, category, strategy, "q-" + id, status, "question", "answer", List.of("gold"), null, null, f1,
                f1 == null ? null : (f1 == 1.0 ? 1.0 : 0.0), null, null, recall, 1, 0, 3, null, calls, tokens, latency, null, null);
    }

    @Test
    void summarisesPerStrategyAndCategoryAndWritesJsonMarkdownAndSvg(@TempDir Path dir) throws Exception {
        List<ItemResult> items = List.of(
                result("a", "1", "rag", "DONE", 1.0, 1.0, 1, 1000, 100),
                result("b", "1", "rag", "DONE", 0.5, 0.0, 1, 2000, 300),
                result("c", "2", "rag", "FAILED", null, null, 0, 0, 200),
                result("a", "1", "extractive", "DONE", 0.25, 0.5, 0, 0, 50));
        Report report = Report.of("toy", List.of("extractive", "rag"), Instant.EPOCH, Instant.EPOCH, items);
        Report.Row ragOverall = report.summary().stream().filter(r -> r.strategy().equals("rag") && r.category().equals("overall"))
                .findFirst().orElseThrow();
        assertThat(ragOverall.n()).isEqualTo(3);
        assertThat(ragOverall.failed()).isEqualTo(1);
        // the failed question counts as F1 0: (1 + 0.5 + 0) / 3
        assertThat(ragOverall.f1()).isCloseTo(0.5, within(1e-9));
        // evidence recall only over questions that have it: (1 + 0) / 2
        assertThat(ragOverall.evidenceRecall()).isCloseTo(0.5, within(1e-9));
        assertThat(ragOverall.llmTokens()).isCloseTo(1000.0, within(1e-9));
        assertThat(ragOverall.p50LatencyMs()).isEqualTo(200);
        assertThat(ragOverall.p95LatencyMs()).isEqualTo(300);
        assertThat(report.summary()).extracting(r -> r.strategy() + "/" + r.category())
                .containsExactly("extractive/1", "extractive/overall", "rag/1", "rag/2", "rag/overall");

        report.write(dir);
        assertThat(JsonMapper.builder().build().readTree(Files.readString(dir.resolve("report.json"))).path("items")).hasSize(4);
        String md = Files.readString(dir.resolve("report.md"));
        assertThat(md).contains("### rag").contains("| **overall** | 3 | 1 | 0.500 |");
        String svg = Files.readString(dir.resolve("accuracy-vs-tokens.svg"));
        DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        assertThat(svg).contains(">rag (0.500)<").contains(">extractive (0.250)<");
    }

    @Test
    void theJudgeMeanCountsFailedQuestionsAsWrongAndShowsOnlyWhenSomethingWasJudged() {
        List<ItemResult> items = List.of(
                result("a", "1", "rag", "DONE", 1.0, null, 1, 100, 10).judged(new EvalRunner.Judgement("correct", "same", null, 1, 300)),
                result("b", "1", "rag", "DONE", 0.5, null, 1, 100, 10).judged(new EvalRunner.Judgement(null, null, "boom", 2, 500)),
                result("c", "2", "rag", "FAILED", null, null, 0, 0, 10),
                result("d", "2", "rag", "DONE", 0.0, null, 1, 100, 10).judged(new EvalRunner.Judgement("incorrect", "no", null, 1, 200)));
        Report report = Report.of("toy", List.of("rag"), Instant.EPOCH, Instant.EPOCH, items, true);
        Report.Row overall = report.summary().stream().filter(r -> r.category().equals("overall")).findFirst().orElseThrow();
        // a (1) + d (0) + failed c (0); b's judge failed and is left out
        assertThat(overall.judge()).isCloseTo(1.0 / 3, within(1e-9));
        assertThat(report.summary().getFirst().judge()).isEqualTo(1.0);
        assertThat(overall.llmTokens()).as("the judge's tokens are not the strategy's").isCloseTo(75.0, within(1e-9));
        assertThat(report.judging()).isEqualTo(new Report.Judging(2, 1, 4, 1000));
        assertThat(report.markdown()).contains("| accuracy | judge | evidence recall |").contains("| 0.333 |").contains("1,000 tokens");

        Report unjudged = Report.of("toy", List.of("rag"), Instant.EPOCH, Instant.EPOCH, items.subList(2, 3), false);
        assertThat(unjudged.judging()).isNull();
        assertThat(unjudged.summary().getFirst().judge()).isNull();
        assertThat(unjudged.markdown()).doesNotContain("judge");
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
        assertThat(TraceSpans.context(trace, "x")).containsExactly(new DocSpan("d", 0, 10), new DocSpan("d", 20, 30),
                new DocSpan("x", 60, 70));
        assertThat(TraceSpans.usage(trace)).containsExactly(3, 4567);
    }
}
