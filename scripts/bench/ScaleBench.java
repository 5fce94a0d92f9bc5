// Search latency as the stored text grows: 100K, 1M and 10M tokens by default.
//
// The corpus is recombined from the novels: each document is a seeded random sequence of runs of
// 3 to 12 consecutive sentences, so it is real English with the novels' vocabulary and term
// statistics, and no two documents are alike (the service de-duplicates identical texts). The
// service runs with lorekeeper.embedding.mode=sentence-mean, so every distinct sentence is embedded
// once by the real model and each chunk's vector is the normalised mean of its sentences' vectors:
// 10M tokens load in minutes instead of the half hour real chunk embeddings would take here, and
// the HNSW index still holds one distinct, realistically distributed vector per chunk.
//
// Tiers are cumulative (the 1M tier adds to the 100K one). After each tier, every mode is measured
// in two scopes: the first document (about 100K tokens) while the rest of the corpus sits beside it
// in the same tables, and all documents at once. 10 warm-up and 100 measured queries per mode and
// scope, client-side. The baseline is the first tier of the same run: each later p50 is also shown
// as a multiple of it.

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Pattern;
import java.util.stream.Stream;

final class ScaleBench {

    private ScaleBench() {
    }

    static final int K = 10;
    static final int WARMUP = 10;
    static final int MEASURED = 100;
    static final int MAX_DOCUMENT_TOKENS = 250_000;
    static final int PARALLEL_INGESTIONS = 4;
    static final List<String> MODES = List.of("vector", "keyword", "hybrid");
    static final List<String> SCOPES = List.of("one document", "all documents");

    record Tier(long targetTokens, long storedTokens, int documents, long chunks, double ingestSeconds,
            Map<String, double[]> p50p95) {
    }

    /** @param state where the documents' ids and the stored tokens are written for the throughput runs (null: nowhere) */
    static void run(String base, Path novels, List<Long> tiers, long seed, Path state) throws Exception {
        List<List<String>> sentences = sentences(novels);
        Random random = new Random(seed);
        List<String> ids = new ArrayList<>();
        long stored = 0;
        long chunks = 0;
        double tokensPerChar = 0.235; // refined from each ingested document
        List<Tier> results = new ArrayList<>();
        for (long target : tiers) {
            long started = System.nanoTime();
            while (stored < target * 0.98) {
                List<String> batch = new ArrayList<>();
                long planned = stored;
                while (batch.size() < PARALLEL_INGESTIONS && planned < target * 0.98) {
                    // The first document is the one-document scope: about 100K tokens whatever the tiers.
                    long size = ids.isEmpty() && batch.isEmpty() ? Math.min(100_000, target)
                            : Math.min(MAX_DOCUMENT_TOKENS, target - planned);
                    size = Math.max(size, 20_000);
                    batch.add(document(sentences, random, (int) (size / tokensPerChar)));
                    planned += size;
                }
                List<String> views = ingestAll(base, batch, ids.size());
                for (int i = 0; i < views.size(); i++) {
                    String view = views.get(i);
                    ids.add(Bench.field(view, "id"));
                    long tokens = Long.parseLong(Bench.rawField(view, "tokenCount"));
                    stored += tokens;
                    chunks += Long.parseLong(Bench.rawField(view, "chunkCount"));
                    tokensPerChar = 0.5 * tokensPerChar + 0.5 * tokens / (double) batch.get(i).length();
                }
                Bench.log(String.format(Locale.ROOT, "stored %,d tokens in %d documents (%,d chunks)", stored, ids.size(), chunks));
            }
            double ingestSeconds = (System.nanoTime() - started) / 1e9;
            Map<String, double[]> latencies = new LinkedHashMap<>();
            for (String scope : SCOPES) {
                List<String> scoped = scope.equals("one document") ? ids.subList(0, 1) : List.copyOf(ids);
                latencies.putAll(measure(base, scoped, scope));
            }
            results.add(new Tier(target, stored, ids.size(), chunks, ingestSeconds, latencies));
        }
        print(results, seed);
        if (state != null) {
            Files.writeString(state, "ids=" + String.join(",", ids) + "\ntokens=" + stored + "\n");
        }
    }

    // ---------------------------------------------------------------- corpus

    private static final Pattern SENTENCE_END = Pattern.compile("(?<=[.!?][\"”’')]?)\\s+(?=[\"“‘(]?[A-Z])");

    /** Each novel's sentences in order (a folder's .txt files, or one file), Project Gutenberg's header and licence left out. */
    static List<List<String>> sentences(Path folder) throws Exception {
        List<List<String>> out = new ArrayList<>();
        try (Stream<Path> files = Files.isDirectory(folder) ? Files.list(folder) : Stream.of(folder)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".txt")).sorted().toList()) {
                String text = Files.readString(file, StandardCharsets.UTF_8).replace("\r\n", "\n");
                int start = text.indexOf("*** START OF");
                int end = text.indexOf("*** END OF");
                text = text.substring(start < 0 ? 0 : text.indexOf('\n', start) + 1, end < 0 ? text.length() : end);
                List<String> novel = new ArrayList<>();
                for (String paragraph : text.split("\n\\s*\n")) {
                    String flat = paragraph.strip().replaceAll("\\s+", " ");
                    if (!flat.isEmpty()) {
                        for (String s : SENTENCE_END.split(flat)) {
                            novel.add(s);
                        }
                    }
                }
                out.add(novel);
            }
        }
        if (out.isEmpty()) {
            throw new IllegalStateException("no .txt novels in " + folder);
        }
        return out;
    }

    /** Runs of 3–12 consecutive sentences from random places of random novels, about {@code chars} long. */
    static String document(List<List<String>> novels, Random random, int chars) {
        StringBuilder text = new StringBuilder(chars + 2_000);
        while (text.length() < chars) {
            List<String> novel = novels.get(random.nextInt(novels.size()));
            int run = 3 + random.nextInt(10);
            int from = random.nextInt(Math.max(1, novel.size() - run));
            if (!text.isEmpty()) {
                text.append("\n\n");
            }
            text.append(String.join(" ", novel.subList(from, Math.min(novel.size(), from + run))));
        }
        return text.toString();
    }

    private static List<String> ingestAll(String base, List<String> texts, int firstNumber) throws Exception {
        try (ExecutorService pool = Executors.newFixedThreadPool(texts.size())) {
            List<Future<String>> views = new ArrayList<>();
            for (int i = 0; i < texts.size(); i++) {
                String title = "Scale benchmark document " + (firstNumber + i + 1);
                String text = texts.get(i);
                views.add(pool.submit(() -> Bench.ingestText(base, title, text, Duration.ofMinutes(60))));
            }
            List<String> out = new ArrayList<>();
            for (Future<String> f : views) {
                out.add(f.get());
            }
            return out;
        }
    }

    // ---------------------------------------------------------------- search

    /** "scope/mode" → {p50, p95} client milliseconds. */
    private static Map<String, double[]> measure(String base, List<String> ids, String scope) throws Exception {
        List<String> questions = Questions.GREAT_EXPECTATIONS;
        for (int i = 0; i < WARMUP; i++) {
            for (String mode : MODES) {
                search(base, ids, mode, questions.get(questions.size() - 1 - i % questions.size()));
            }
        }
        Map<String, double[]> samples = new LinkedHashMap<>();
        MODES.forEach(m -> samples.put(m, new double[MEASURED]));
        for (int i = 0; i < MEASURED; i++) {
            for (int j = 0; j < MODES.size(); j++) {
                String mode = MODES.get((i + j) % MODES.size()); // rotate which mode goes first
                long start = System.nanoTime();
                search(base, ids, mode, questions.get(i % questions.size()));
                samples.get(mode)[i] = (System.nanoTime() - start) / 1e6;
            }
        }
        Map<String, double[]> out = new LinkedHashMap<>();
        samples.forEach((mode, ms) -> out.put(scope + "/" + mode, new double[] {Bench.pct(ms, 50), Bench.pct(ms, 95)}));
        Bench.log(scope + ": " + summary(out));
        return out;
    }

    private static String summary(Map<String, double[]> latencies) {
        StringBuilder s = new StringBuilder();
        latencies.forEach((k, v) -> s.append(String.format(Locale.ROOT, "%s p50 %.1f ms p95 %.1f ms; ", k, v[0], v[1])));
        return s.toString();
    }

    private static void search(String base, List<String> ids, String mode, String query) throws Exception {
        Bench.postJson(base + "/v1/search", "{\"documentIds\":" + Bench.quoteAll(ids) + ",\"query\":\"" + Bench.escape(query)
                + "\",\"mode\":\"" + mode + "\",\"k\":" + K + "}", 200);
    }

    // ---------------------------------------------------------------- report

    private static void print(List<Tier> tiers, long seed) {
        StringBuilder out = new StringBuilder();
        out.append("\n### Search latency by stored text\n\n").append(Bench.header());
        out.append("| Corpus | the novels' sentences recombined (seed ").append(seed)
                .append("), chunk vectors = mean of sentence vectors (`lorekeeper.embedding.mode=sentence-mean`) |\n\n");
        out.append("| Stored tokens | Documents | Chunks | Load s (tokens/s) | Scope | vector p50 / p95 ms | keyword p50 / p95 ms | hybrid p50 / p95 ms |\n");
        out.append("|---:|---:|---:|---:|---|---:|---:|---:|\n");
        Tier first = tiers.getFirst();
        for (Tier t : tiers) {
            for (String scope : SCOPES) {
                out.append(String.format(Locale.ROOT, "| %,d | %d | %,d | %.0f (%,.0f) | %s |", t.storedTokens(), t.documents(),
                        t.chunks(), t.ingestSeconds(), (t.storedTokens() - (t == first ? 0 : previous(tiers, t).storedTokens()))
                                / t.ingestSeconds(), scope));
                for (String mode : MODES) {
                    double[] v = t.p50p95().get(scope + "/" + mode);
                    double base = first.p50p95().get(scope + "/" + mode)[0];
                    out.append(String.format(Locale.ROOT, " %.1f / %.1f%s |", v[0], v[1],
                            t == first ? "" : String.format(Locale.ROOT, " (%.1f×)", v[0] / base)));
                }
                out.append('\n');
            }
        }
        out.append("\n(×: p50 as a multiple of the same scope and mode at ").append(String.format(Locale.ROOT, "%,d", first.storedTokens()))
                .append(" stored tokens, measured in the same run.) ");
        Tier last = tiers.getLast();
        for (String scope : SCOPES) {
            out.append(String.format(Locale.ROOT, "Hybrid / vector p50 at %,d tokens, %s: %.2f×. ", last.storedTokens(), scope,
                    last.p50p95().get(scope + "/hybrid")[0] / last.p50p95().get(scope + "/vector")[0]));
        }
        out.append('\n');
        System.out.println();
        System.out.print(out);
    }

    private static Tier previous(List<Tier> tiers, Tier t) {
        return tiers.get(tiers.indexOf(t) - 1);
    }

    /** "100K" → 100000, "1M" → 1000000, "2.5M" → 2500000. */
    static long parseTokens(String s) {
        String t = s.strip().toUpperCase(Locale.ROOT);
        double factor = t.endsWith("K") ? 1e3 : t.endsWith("M") ? 1e6 : 1;
        if (factor > 1) {
            t = t.substring(0, t.length() - 1);
        }
        return Math.round(Double.parseDouble(t) * factor);
    }
}
