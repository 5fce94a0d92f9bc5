// Questions per second and serving overhead of each strategy, with the service's simulated LLM
// (lorekeeper.llm.simulated.*) sleeping a fixed latency before every reply: the model's share of
// a question is then known exactly (calls × latency), and what remains is ours — queueing on
// db-scheduler, retrieval, prompt building, parsing, citation checks, database writes, polling.
//
// For each strategy: questions asked one at a time (latency, calls, overhead), then as many other
// questions by `concurrency` clients at once (questions per second). The baselines, measured in
// the same run: the model time itself (wall ÷ model time) and the rag strategy's throughput.
// The simulated model's answers are not a model's; nothing here says anything about accuracy.

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

final class StrategyBench {

    private StrategyBench() {
    }

    /** One strategy's figures; {@code error} set when it could not run. */
    record Result(String strategy, int questions, double callsPerQuestion, double tokensPerQuestion, double wallP50, double wallMean,
            double queuedMean, double modelMsPerQuestion, double questionsPerSecond, int concurrency, String error) {
    }

    record Answer(long wallMs, long queuedMs, long calls, long tokens) {
    }

    static void run(String base, Path novel, int chars, long latencyMs, List<String> strategies, int questions, int concurrency)
            throws Exception {
        String text = Files.readString(novel, StandardCharsets.UTF_8);
        text = text.substring(0, Math.min(chars, text.length()));
        long started = System.nanoTime();
        // ComoRAG answers only over its own index, built for documents with the deep profile
        String profile = strategies.contains("comorag") ? "deep" : "standard";
        String view = Bench.ingestText(base, novel.getFileName() + " (first " + text.length() + " characters)", text, profile,
                Duration.ofMinutes(30));
        String id = Bench.field(view, "id");
        view = Bench.awaitSettled(base, id, Duration.ofMinutes(60));
        int tokens = Integer.parseInt(Bench.rawField(view, "tokenCount"));
        Bench.log(String.format(Locale.ROOT, "document %s READY (%,d tokens) in %.1f s, memorizer stages included", id, tokens,
                (System.nanoTime() - started) / 1e9));
        // Different questions for the concurrent pass: MindGraph reuses a graph built for the same
        // question, which would make repeated questions look cheaper than new ones.
        List<String> all = Questions.GREAT_EXPECTATIONS;
        int n = Math.min(questions, all.size() / 2);
        List<Result> results = new ArrayList<>();
        for (String strategy : strategies) {
            results.add(measure(base, id, strategy, all.subList(0, n), all.subList(n, 2 * n), latencyMs, concurrency));
        }
        print(results, latencyMs, tokens);
    }

    private static Result measure(String base, String id, String strategy, List<String> asked, List<String> concurrent, long latencyMs,
            int concurrency) {
        try {
            ask(base, id, strategy, "Who is Joe Gargery?"); // warm-up, not among the measured questions
            List<Answer> sequential = new ArrayList<>();
            for (String q : asked) {
                sequential.add(ask(base, id, strategy, q));
            }
            long t0 = System.nanoTime();
            try (ExecutorService clients = Executors.newFixedThreadPool(concurrency)) {
                List<Future<Answer>> futures = new ArrayList<>();
                for (String q : concurrent) {
                    futures.add(clients.submit(() -> ask(base, id, strategy, q)));
                }
                for (Future<Answer> f : futures) {
                    f.get();
                }
            }
            double qps = concurrent.size() / ((System.nanoTime() - t0) / 1e9);
            double[] walls = sequential.stream().mapToDouble(Answer::wallMs).toArray();
            double calls = sequential.stream().mapToLong(Answer::calls).average().orElse(0);
            Result r = new Result(strategy, asked.size(), calls, sequential.stream().mapToLong(Answer::tokens).average().orElse(0),
                    Bench.pct(walls, 50), Bench.mean(walls), sequential.stream().mapToLong(Answer::queuedMs).average().orElse(0),
                    calls * latencyMs, qps, concurrency, null);
            Bench.log(String.format(Locale.ROOT, "%s: %.1f calls/question, p50 %.0f ms, %.2f questions/s", strategy, calls, r.wallP50(), qps));
            return r;
        } catch (Exception e) {
            Bench.log(strategy + " failed: " + e.getMessage());
            return new Result(strategy, 0, 0, 0, 0, 0, 0, 0, 0, concurrency, e.getMessage());
        }
    }

    /** Asks and waits (the service holds the request up to 60 s), then reads cost from the trace. */
    static Answer ask(String base, String id, String strategy, String question) throws Exception {
        long start = System.nanoTime();
        String view = Bench.postJson(base + "/v1/questions", "{\"documentIds\":[\"" + id + "\"],\"question\":\"" + Bench.escape(question)
                + "\",\"strategy\":\"" + strategy + "\",\"waitSeconds\":60}", 200, 202);
        String questionId = Bench.field(view, "id");
        while (!terminal(view)) {
            Thread.sleep(100);
            view = Bench.get(base + "/v1/questions/" + questionId);
        }
        long wall = (System.nanoTime() - start) / 1_000_000;
        String status = Bench.field(view, "status");
        if (!status.equals("DONE")) {
            throw new IllegalStateException("question " + questionId + " ended " + status + ": " + view);
        }
        String trace = Bench.get(base + "/v1/questions/" + questionId + "/trace");
        long queued = Math.max(0, Bench.lastNumber(view, "queuedMs"));
        return new Answer(wall, queued, Math.max(0, Bench.lastNumber(trace, "llmCalls")), Math.max(0, Bench.lastNumber(trace, "llmTokens")));
    }

    private static boolean terminal(String view) {
        String status = Bench.field(view, "status");
        return status.equals("DONE") || status.equals("FAILED");
    }

    private static void print(List<Result> results, long latencyMs, int tokens) {
        StringBuilder out = new StringBuilder();
        out.append("\n### Strategies with a simulated LLM\n\n").append(Bench.header());
        out.append(String.format(Locale.ROOT, "| Setup | %,d-token document; simulated LLM sleeping %d ms per call; %d questions per strategy |%n%n",
                tokens, latencyMs, results.stream().mapToInt(Result::questions).max().orElse(0)));
        out.append("| Strategy | LLM calls / q | LLM tokens / q | Wall p50 ms | Wall mean ms | of which queued | Model ms / q | Overhead ms / q | Wall ÷ model | Questions/s (clients) | ÷ rag |\n");
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        Map<String, Result> byName = new LinkedHashMap<>();
        results.forEach(r -> byName.put(r.strategy(), r));
        Result rag = byName.get("rag");
        for (Result r : results) {
            if (r.error() != null) {
                out.append("| ").append(r.strategy()).append(" | failed: ").append(r.error().replace('|', '/').replace('\n', ' '))
                        .append(" |||||||||\n");
                continue;
            }
            double overhead = r.wallMean() - r.modelMsPerQuestion();
            out.append(String.format(Locale.ROOT, "| %s | %.1f | %,.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %s | %.2f (%d) | %s |%n",
                    r.strategy(), r.callsPerQuestion(), r.tokensPerQuestion(), r.wallP50(), r.wallMean(), r.queuedMean(),
                    r.modelMsPerQuestion(), overhead,
                    r.modelMsPerQuestion() > 0 ? String.format(Locale.ROOT, "%.2f", r.wallMean() / r.modelMsPerQuestion()) : "–",
                    r.questionsPerSecond(), r.concurrency(),
                    rag == null || rag.error() != null ? "–" : String.format(Locale.ROOT, "%.2f", r.questionsPerSecond() / rag.questionsPerSecond())));
        }
        out.append("\nOverhead = mean wall time of a question asked alone − LLM calls × the simulated latency; where a strategy"
                + " runs calls concurrently the model's real share is smaller, so the overhead shown is a lower bound.\n");
        System.out.println();
        System.out.print(out);
    }
}
