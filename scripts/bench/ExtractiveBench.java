// The no-LLM answer path at speed: extractive questions on one novel once its sentences memory is
// built. One client asks the forty Great Expectations questions one after another (after five to
// warm up): p50/p95 of the whole POST /v1/questions round trip (waitSeconds answers in the same
// request). Then `clients` clients ask distinct questions back to back for 30 s after 5 s of
// warm-up: questions/s, and where the CPU went meanwhile (ProcessCpu). scripts/benchmark.sh runs it
// for the current path and for a same-run baseline in a fresh service process on the same
// document. Distinct questions are made of word runs of the novel's sentences ("What about ...?"),
// so no answer, query embedding or plan is reused between them.

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

final class ExtractiveBench {

    private ExtractiveBench() {
    }

    static final int WARMUP = 5;
    static final int LOADED_WARMUP_SECONDS = 5;
    static final int LOADED_SECONDS = 30;

    /** Ingests the novel (retrieval-only) and waits until its enrichments, the sentences memory among them, are done; prints its id. */
    static void ingest(String base, Path novel, Path state) throws Exception {
        String text = Files.readString(novel, StandardCharsets.UTF_8);
        long started = System.nanoTime();
        String view = Bench.ingestText(base, novel.getFileName() + " (extractive)", text, "retrieval-only", Duration.ofMinutes(30));
        String id = Bench.field(view, "id");
        long ready = System.nanoTime();
        view = Bench.awaitSettled(base, id, Duration.ofMinutes(60));
        int tokens = Integer.parseInt(Bench.rawField(view, "tokenCount"));
        Bench.log(String.format(Locale.ROOT, "%s: %,d tokens READY in %.1f s, settled (sentences memory) %.1f s later", id, tokens,
                (ready - started) / 1e9, (System.nanoTime() - ready) / 1e9));
        Files.writeString(state, "id=" + id + "\ntokens=" + tokens + "\n");
    }

    /** Measures one service configuration on the ingested novel; appends a tab-separated row to {@code results}. */
    static void run(String base, Path novel, String id, String label, int clients, long seed, Path results) throws Exception {
        List<String> fixed = Questions.GREAT_EXPECTATIONS;
        ThroughputBench.Queries runs = new ThroughputBench.Queries(ScaleBench.sentences(novel), new Random(seed));
        for (int i = 0; i < WARMUP; i++) {
            ask(base, id, "What about " + runs.next() + "?");
        }
        double[] solo = new double[fixed.size()];
        for (int i = 0; i < solo.length; i++) {
            long start = System.nanoTime();
            ask(base, id, fixed.get(i));
            solo[i] = (System.nanoTime() - start) / 1e6;
        }
        Bench.log(String.format(Locale.ROOT, "%s: one client p50 %.0f ms p95 %.0f ms", label, Bench.pct(solo, 50), Bench.pct(solo, 95)));

        List<String> pool = new ArrayList<>();
        for (String run : runs.take(20_000)) {
            pool.add("What about " + run + "?");
        }
        Loaded.Result loaded = Loaded.run(clients, LOADED_WARMUP_SECONDS, LOADED_SECONDS, n -> ask(base, id, pool.get(n % pool.size())));
        double[] all = loaded.ms();
        double perSecond = loaded.perSecond(LOADED_SECONDS);
        String failures = String.valueOf(loaded.failures());
        String cpu = loaded.cpu();
        String memory = loaded.memory();
        String row = String.join("\t", label, String.valueOf(clients), fmt(perSecond), fmt(Bench.pct(all, 50)), fmt(Bench.pct(all, 95)),
                fmt(Bench.pct(solo, 50)), fmt(Bench.pct(solo, 95)), ThroughputBench.loadAverage(), failures, cpu,
                memory);
        Files.writeString(results, row + "\n", java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
        Bench.log(String.format(Locale.ROOT, "%s: %d clients %.1f questions/s, p50 %.0f ms p95 %.0f ms, %d failures, CPU %s", label,
                clients, perSecond, Bench.pct(all, 50), Bench.pct(all, 95), loaded.failures(), cpu));
    }

    static void report(Path state, Path results) throws Exception {
        String tokens = String.format(Locale.ROOT, "%,d", Long.parseLong(Main.state(state.toString(), "tokens")));
        List<String[]> rows = Files.readAllLines(results).stream().filter(l -> !l.isBlank()).map(l -> l.split("\t")).toList();
        StringBuilder out = new StringBuilder("\n### Extractive questions\n\n").append(Bench.header());
        out.append("| Document | ").append(tokens).append(" tokens (retrieval-only, sentences memory built) |\n\n");
        out.append("| Path | one client p50 / p95 ms | clients | questions/s | ÷ baseline | loaded p50 / p95 ms | load avg after | failures | CPU while loaded | service RSS / peak MB |\n");
        out.append("|---|---:|---:|---:|---:|---:|---|---:|---|---:|\n");
        double baseline = rows.stream().filter(r -> r[0].equals("baseline")).mapToDouble(r -> Double.parseDouble(r[2])).findFirst()
                .orElse(Double.NaN);
        for (String[] r : rows) {
            out.append(String.format(Locale.ROOT, "| %s | %s / %s | %s | %s | %.2f× | %s / %s | %s | %s | %s | %s |\n", r[0], r[5], r[6], r[1],
                    r[2], Double.parseDouble(r[2]) / baseline, r[3], r[4], r[7], r[8], r[9], r[10]));
        }
        out.append("\n(One client: the ").append(Questions.GREAT_EXPECTATIONS.size()).append(" Great Expectations questions after ")
                .append(WARMUP).append(" others. Loaded: distinct questions for ").append(LOADED_SECONDS).append(" s after ")
                .append(LOADED_WARMUP_SECONDS).append(" s of warm-up.)\n");
        System.out.println();
        System.out.print(out);
    }

    private static void ask(String base, String id, String question) throws Exception {
        String view = Bench.postJson(base + "/v1/questions", "{\"documentIds\":[\"" + id + "\"],\"question\":\"" + Bench.escape(question)
                + "\",\"strategy\":\"extractive\",\"waitSeconds\":60}", 200, 202);
        String status = Bench.field(view, "status");
        if (!status.equals("DONE")) {
            throw new IllegalStateException("question ended " + status);
        }
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }
}
