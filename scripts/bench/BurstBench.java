// A burst of extractive questions on a document that has just settled (READY, and its enrichment
// stages done: the sentences memory included): 32 clients (the count is a parameter) each ask one
// question at the same moment, then the same 32 again. The first burst pays whatever cold work is
// left per question (query embeddings, cached text, database buffers), the second finds it done;
// the ratio of their p95 shows whether concurrent questions share that cold work or each repeat it
// (issue #28: within 3x). The baseline is the warm burst of the same run.

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

final class BurstBench {

    private BurstBench() {
    }

    static void run(String base, Path novel, int chars, int clients) throws Exception {
        String text = Files.readString(novel, StandardCharsets.UTF_8);
        text = text.substring(0, Math.min(chars, text.length()));
        String view = Bench.ingestText(base, novel.getFileName() + " burst (first " + text.length() + " characters)", text,
                "retrieval-only", Duration.ofMinutes(30));
        String id = Bench.field(view, "id");
        view = Bench.awaitSettled(base, id, Duration.ofMinutes(30));
        int tokens = Integer.parseInt(Bench.rawField(view, "tokenCount"));
        List<String> questions = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            questions.add(Questions.GREAT_EXPECTATIONS.get(i % Questions.GREAT_EXPECTATIONS.size()));
        }
        double[] cold = burst(base, id, questions);
        double[] warm = burst(base, id, questions);
        StringBuilder out = new StringBuilder();
        out.append("\n### A burst of extractive questions on a fresh document\n\n").append(Bench.header());
        out.append(String.format(Locale.ROOT, "| Setup | %,d-token document (retrieval-only), %d clients asking at once, then again |%n%n",
                tokens, clients));
        out.append("| Burst | p50 ms | p95 ms | max ms |\n|---|---:|---:|---:|\n");
        out.append(row("cold (first burst, sentences memory built)", cold)).append(row("warm (same questions again)", warm));
        out.append(String.format(Locale.ROOT, "%nCold p95 / warm p95: **%.2fx**%n", Bench.pct(cold, 95) / Bench.pct(warm, 95)));
        System.out.print(out);
    }

    private static String row(String label, double[] wall) {
        return String.format(Locale.ROOT, "| %s | %.0f | %.0f | %.0f |%n", label, Bench.pct(wall, 50), Bench.pct(wall, 95),
                Bench.pct(wall, 100));
    }

    private static double[] burst(String base, String id, List<String> questions) throws Exception {
        CyclicBarrier start = new CyclicBarrier(questions.size());
        try (ExecutorService clients = Executors.newFixedThreadPool(questions.size())) {
            List<Future<Long>> futures = new ArrayList<>();
            for (String q : questions) {
                futures.add(clients.submit(() -> {
                    start.await();
                    return StrategyBench.ask(base, id, "extractive", q).wallMs();
                }));
            }
            double[] wall = new double[futures.size()];
            for (int i = 0; i < wall.length; i++) {
                wall[i] = futures.get(i).get();
            }
            return wall;
        }
    }
}
