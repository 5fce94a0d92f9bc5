// Hybrid search under load: searches/s with 32 clients across every stored document, and the
// latency of one client alone, for one service configuration at a time. scripts/benchmark.sh runs
// it in the scale phase after the last tier, once per configuration on the same database (the
// current search path, then a baseline (BM25 scored in SQL unless LK_BENCH_THROUGHPUT_BASELINE says
// otherwise), then the current one again), so the table compares figures of the same run on the same data.
//
// Queries are distinct: word runs of 6-14 words from random sentences of the novels (seeded), so
// no query repeats within a run and a cache of query embeddings cannot flatter the figures.
// The machine's load average is recorded with each row: on a shared machine it says how much
// other work competed.

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

final class ThroughputBench {

    private ThroughputBench() {
    }

    static final int K = 10;
    static final int SOLO_WARMUP = 20;
    static final int SOLO_MEASURED = 200;
    static final int LOADED_WARMUP_SECONDS = 5;
    static final int LOADED_SECONDS = 30;

    /**
     * Measures one configuration and appends a row to {@code results} (tab-separated).
     *
     * @param ids the documents to search (all of them)
     * @param salt a different one per configuration, so no configuration sees another's queries
     */
    static void run(String base, Path novels, List<String> ids, String label, int clients, long seed, int salt, Path results)
            throws Exception {
        Queries queries = new Queries(ScaleBench.sentences(novels), new Random(seed * 31 + salt));
        measure(base, ids.subList(0, 1), label, "one document", clients, queries, results);
        measure(base, ids, label, "all documents", clients, queries, results);
    }

    private static void measure(String base, List<String> ids, String label, String scope, int clients, Queries queries, Path results)
            throws Exception {
        String name = label + ", " + scope;
        String load = loadAverage();
        double[] solo = new double[SOLO_MEASURED];
        for (int i = 0; i < SOLO_WARMUP; i++) {
            search(base, ids, queries.next());
        }
        for (int i = 0; i < SOLO_MEASURED; i++) {
            String query = queries.next();
            long start = System.nanoTime();
            search(base, ids, query);
            solo[i] = (System.nanoTime() - start) / 1e6;
        }
        Bench.log(String.format(Locale.ROOT, "%s: one client p50 %.1f ms p95 %.1f ms", name, Bench.pct(solo, 50), Bench.pct(solo, 95)));

        // Loaded: `clients` threads search back to back; only searches that start and end inside the
        // measured window count.
        List<String> pool = queries.take(20_000);
        Loaded.Result loaded = Loaded.run(clients, LOADED_WARMUP_SECONDS, LOADED_SECONDS, n -> search(base, ids, pool.get(n % pool.size())));
        double[] all = loaded.ms();
        double perSecond = loaded.perSecond(LOADED_SECONDS);
        String row = String.join("\t", label + "\t" + scope, String.valueOf(clients), fmt(perSecond), fmt(Bench.pct(all, 50)), fmt(Bench.pct(all, 95)),
                fmt(Bench.pct(solo, 50)), fmt(Bench.pct(solo, 95)), load, loaded.loadDuring(), String.valueOf(loaded.failures()),
                String.valueOf(ids.size()), loaded.cpu(), loaded.memory());
        Files.writeString(results, row + "\n", java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
        Bench.log(String.format(Locale.ROOT, "%s: %d clients %.1f searches/s, p50 %.1f ms p95 %.1f ms, %d failures, load %s, CPU %s, RSS/peak %s MB",
                name, clients, perSecond, Bench.pct(all, 50), Bench.pct(all, 95), loaded.failures(), loaded.loadDuring(), loaded.cpu(),
                loaded.memory()));
    }

    /**
     * One client's latency of each search mode (hybrid and deep; keyword to follow BM25 alone),
     * interleaved, over the first {@code documents} documents (the scale corpus's first five hold
     * about 1M tokens), with distinct queries; {@code label} names the search path measured.
     */
    static void modes(String base, Path novels, List<String> ids, int documents, long seed, List<String> modes, String label)
            throws Exception {
        Queries queries = new Queries(ScaleBench.sentences(novels), new Random(seed * 31 + 99));
        List<String> scoped = ids.subList(0, Math.min(documents, ids.size()));
        double[][] ms = new double[modes.size()][SOLO_MEASURED];
        String load = loadAverage();
        for (int i = 0; i < SOLO_WARMUP + SOLO_MEASURED; i++) {
            String query = queries.next();
            for (int j = 0; j < modes.size(); j++) {
                int m = (i + j) % modes.size(); // rotate which mode goes first
                long start = System.nanoTime();
                search(base, scoped, query, modes.get(m));
                if (i >= SOLO_WARMUP) {
                    ms[m][i - SOLO_WARMUP] = (System.nanoTime() - start) / 1e6;
                }
            }
        }
        StringBuilder out = new StringBuilder("\n### ").append(String.join(" and ", modes)).append(" search latency, one client")
                .append(label.isEmpty() ? "" : ", " + label + " search path").append("\n\n").append(Bench.header());
        out.append("| Scope | the first ").append(scoped.size()).append(" documents of the scale corpus; k=").append(K)
                .append("; the same ").append(SOLO_MEASURED).append(" distinct queries for every mode |\n\n");
        out.append("| Mode | p50 ms | p95 ms | load avg before | load avg after |\n|---|---:|---:|---|---|\n");
        String after = loadAverage();
        for (int m = 0; m < modes.size(); m++) {
            out.append(String.format(Locale.ROOT, "| %s | %.1f | %.1f | %s | %s |\n", modes.get(m), Bench.pct(ms[m], 50), Bench.pct(ms[m], 95),
                    load, after));
        }
        System.out.println();
        System.out.print(out);
    }

    /** The rows of {@code results} as a Markdown table, each rate also as a multiple of the first row's. */
    static void report(Path results, String storedTokens) throws Exception {
        List<String[]> rows = Files.readAllLines(results).stream().filter(l -> !l.isBlank()).map(l -> l.split("\t")).toList();
        StringBuilder out = new StringBuilder("\n### Hybrid search throughput\n\n").append(Bench.header());
        out.append("| Corpus | ").append(storedTokens).append(" stored tokens in ").append(rows.getLast()[11])
                .append(" documents; one document = the first (about 100K tokens); k=").append(K).append("; distinct queries |\n\n");
        out.append("| Search path | Scope | Clients | searches/s | ÷ baseline | loaded p50 / p95 ms | one client p50 / p95 ms | load avg before | load avg during | failures | CPU while loaded | service RSS / peak MB |\n");
        out.append("|---|---|---:|---:|---:|---:|---:|---|---|---:|---|---:|\n");
        for (String[] r : rows) {
            double baseline = rows.stream().filter(b -> b[0].equals("baseline") && b[1].equals(r[1])).mapToDouble(b -> Double.parseDouble(b[3]))
                    .findFirst().orElse(Double.NaN);
            out.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %.2f× | %s / %s | %s / %s | %s | %s | %s | %s | %s |\n", r[0], r[1], r[2], r[3],
                    Double.parseDouble(r[3]) / baseline, r[4], r[5], r[6], r[7], r[8], r[9], r[10], column(r, 12), column(r, 13)));
        }
        out.append("\n(Loaded: ").append(LOADED_SECONDS).append(" s after ").append(LOADED_WARMUP_SECONDS)
                .append(" s of warm-up, client and service on the same machine. One client: ").append(SOLO_MEASURED)
                .append(" searches after ").append(SOLO_WARMUP).append(".)\n");
        System.out.println();
        System.out.print(out);
    }

    private static String column(String[] row, int i) {
        return i < row.length ? row[i] : "?";
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    static String loadAverage() {
        try {
            String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return parts[0] + " " + parts[1] + " " + parts[2];
        } catch (Exception e) {
            return "?";
        }
    }

    private static void search(String base, List<String> ids, String query) throws Exception {
        search(base, ids, query, "hybrid");
    }

    private static void search(String base, List<String> ids, String query, String mode) throws Exception {
        Bench.postJson(base + "/v1/search", "{\"documentIds\":" + Bench.quoteAll(ids) + ",\"query\":\"" + Bench.escape(query)
                + "\",\"mode\":\"" + mode + "\",\"k\":" + K + "}", 200);
    }

    /** Distinct word runs from random sentences. */
    static final class Queries {
        private final List<List<String>> sentences;
        private final Random random;
        private final java.util.Set<String> used = new java.util.HashSet<>();

        Queries(List<List<String>> sentences, Random random) {
            this.sentences = sentences;
            this.random = random;
        }

        String next() {
            while (true) {
                List<String> novel = sentences.get(random.nextInt(sentences.size()));
                String[] words = novel.get(random.nextInt(novel.size())).split("\\s+");
                if (words.length < 6) {
                    continue;
                }
                int length = Math.min(words.length, 6 + random.nextInt(9));
                int from = random.nextInt(words.length - length + 1);
                String query = String.join(" ", Arrays.copyOfRange(words, from, from + length));
                if (used.add(query)) {
                    return query;
                }
            }
        }

        List<String> take(int n) {
            List<String> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                out.add(next());
            }
            return out;
        }
    }
}
