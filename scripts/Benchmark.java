// Lorekeeper benchmark client: measures, against a running service,
//  (1) ingestion throughput (tokens/s) of one novel: POST → READY in total and per stage
//      (segment, embed), by polling GET /v1/documents/{id} every 100 ms;
//  (2) POST /v1/search latency at k=10 for the vector, keyword and hybrid modes: 10 warm-up queries
//      per mode, then 200 measured per mode (40 questions about Great Expectations, cycled, modes
//      interleaved), client-side (System.nanoTime around each call) and the server's tookMs;
//  (3) the cost of fusion: hybrid p50 over vector p50 and over keyword p50.
// Prints a Markdown block (date, machine, JDK, tables) ready to paste into the README.
//
// Usually run through scripts/benchmark.sh, which builds and starts the service on a clean
// database. By hand (JEP 330 source launch, no dependencies; JDK 21+):
//   java scripts/Benchmark.java <baseUrl> <novelPath> [serviceLog]
// serviceLog (optional): the service's plain-text log; its "Stage X of document Y done in N ms"
// lines add the server-measured stage durations next to the polled ones.

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class Benchmark {

    static final int K = 10;
    static final int WARMUP_PER_MODE = 10;
    static final int MEASURED_PER_MODE = 200;
    static final List<String> MODES = List.of("vector", "keyword", "hybrid");
    static final List<String> QUESTIONS = List.of(
            "Who is Pip's secret benefactor?",
            "What happened at Satis House?",
            "Why does Miss Havisham still wear her wedding dress?",
            "Who is Estella's real mother?",
            "Who is Estella's father?",
            "What does Pip steal for the convict on the marshes?",
            "Where does Joe Gargery work as a blacksmith?",
            "How is Mrs. Joe injured?",
            "Who attacked Mrs. Joe with the convict's leg-iron?",
            "What is Mr. Jaggers's profession?",
            "Who is Wemmick and where does he live?",
            "What is the Aged Parent like at Walworth?",
            "Who is Herbert Pocket?",
            "How did Pip and Herbert first meet as boys?",
            "Who jilted Miss Havisham on her wedding day?",
            "What is Compeyson's relationship to Magwitch?",
            "Why was Magwitch transported to New South Wales?",
            "What name does Magwitch use when he returns to London?",
            "How does Miss Havisham die?",
            "Whom does Estella marry?",
            "How does Bentley Drummle treat Estella?",
            "Who is Biddy and whom does she marry?",
            "What does Uncle Pumblechook claim about Pip's fortune?",
            "What happens when Pip tries to row Magwitch down the Thames?",
            "Who is Orlick and why does he hate Pip?",
            "What happens at the limekiln by the sluice-house on the marshes?",
            "Where does Pip lodge with Herbert at Barnard's Inn?",
            "What are Pip's great expectations?",
            "Who secretly pays for Herbert's position at Clarriker's?",
            "What happens to Magwitch's fortune after his trial?",
            "How does Joe nurse Pip through his fever?",
            "What does Wemmick tell Pip about Molly the housekeeper?",
            "Who are the Finches of the Grove?",
            "What does Mr. Wopsle do after leaving the church?",
            "Why is Pip ashamed of Joe when he visits London?",
            "Why does Wemmick warn Pip not to go home?",
            "Where do Pip and Estella meet again at the end of the novel?",
            "Who is Clara Barley and where does she live?",
            "What happened on Christmas Day when the soldiers came to the forge?",
            "Why does Pip go abroad to work in Cairo with Herbert?");

    static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: java scripts/Benchmark.java <baseUrl> <novelPath> [serviceLog]");
            System.exit(2);
        }
        String base = args[0].replaceAll("/+$", "");
        Path novel = Path.of(args[1]);
        Path serviceLog = args.length > 2 ? Path.of(args[2]) : null;

        Ingestion ingestion = ingest(base, novel);
        Map<String, String> serverStageMs = serviceLog == null ? Map.of() : loggedStages(serviceLog, ingestion.id);
        Map<String, Latencies> latencies = search(base, ingestion.id);
        print(novel, ingestion, serverStageMs, latencies);
    }

    // ---------------------------------------------------------------- ingestion

    record Stage(String name, String status) {
    }

    static final class Ingestion {
        String id;
        int tokenCount;
        int chunkCount;
        double totalSeconds;
        final Map<String, Double> stageSeconds = new LinkedHashMap<>();
        final Map<String, String> stageOutcome = new LinkedHashMap<>();
    }

    static Ingestion ingest(String base, Path novel) throws Exception {
        byte[] file = Files.readAllBytes(novel);
        log("uploading " + novel.getFileName() + " (" + file.length + " bytes)");
        long t0 = System.nanoTime();
        String accepted = upload(base, novel, file);
        String id = field(accepted, "id");
        if (!"true".equals(rawField(accepted, "created"))) {
            // The same text is already stored (the database was not reset): delete it and upload again.
            log("document " + id + " already existed; deleting it and uploading again");
            send(HttpRequest.newBuilder(URI.create(base + "/v1/documents/" + id)).DELETE(), 204);
            t0 = System.nanoTime();
            accepted = upload(base, novel, file);
            id = field(accepted, "id");
        }
        log("document " + id + " accepted; polling every 100 ms");

        List<String> order = new ArrayList<>();
        Map<String, Long> firstRunning = new LinkedHashMap<>();
        Map<String, Long> firstDone = new LinkedHashMap<>();
        Map<String, String> finalStatus = new LinkedHashMap<>();
        String view;
        long readyAt;
        long deadline = t0 + Duration.ofMinutes(30).toNanos();
        String lastProgress = "";
        while (true) {
            view = send(HttpRequest.newBuilder(URI.create(base + "/v1/documents/" + id)).GET(), 200);
            long now = System.nanoTime();
            for (Stage s : stages(view)) {
                if (!order.contains(s.name)) {
                    order.add(s.name);
                }
                finalStatus.put(s.name, s.status);
                if (s.status.equals("RUNNING")) {
                    firstRunning.putIfAbsent(s.name, now);
                } else if (s.status.equals("DONE") || s.status.equals("SKIPPED")) {
                    firstDone.putIfAbsent(s.name, now);
                }
            }
            String status = field(view, "status");
            if (status.equals("READY")) {
                readyAt = now;
                break;
            }
            if (status.equals("FAILED")) {
                throw new IllegalStateException("ingestion failed: " + view);
            }
            if (now > deadline) {
                throw new IllegalStateException("ingestion not READY after 30 minutes: " + view);
            }
            String progress = status + " " + finalStatus;
            if (!progress.equals(lastProgress)) {
                log(progress);
                lastProgress = progress;
            }
            Thread.sleep(100);
        }

        Ingestion result = new Ingestion();
        result.id = id;
        result.tokenCount = Integer.parseInt(rawField(view, "tokenCount"));
        result.chunkCount = Integer.parseInt(rawField(view, "chunkCount"));
        result.totalSeconds = (readyAt - t0) / 1e9;
        for (int i = 0; i < order.size(); i++) {
            String name = order.get(i);
            // A stage starts when it first shows RUNNING or when the previous stage became DONE,
            // whichever was seen first; the first stage, if never seen RUNNING, at the upload.
            long start = i == 0 ? t0 : Long.MAX_VALUE;
            if (i > 0 && firstDone.containsKey(order.get(i - 1))) {
                start = firstDone.get(order.get(i - 1));
            }
            if (firstRunning.containsKey(name)) {
                start = i == 0 ? firstRunning.get(name) : Math.min(start, firstRunning.get(name));
            }
            long end = firstDone.getOrDefault(name, readyAt);
            result.stageOutcome.put(name, finalStatus.get(name));
            result.stageSeconds.put(name, start == Long.MAX_VALUE ? Double.NaN : Math.max(0, end - start) / 1e9);
        }
        log(String.format(Locale.ROOT, "READY: %d tokens, %d chunks in %.2f s", result.tokenCount, result.chunkCount,
                result.totalSeconds));
        return result;
    }

    static String upload(String base, Path novel, byte[] file) throws Exception {
        String boundary = "----lorekeeper-bench-" + System.nanoTime();
        String head = "--" + boundary + "\r\n"
                + "Content-Disposition: form-data; name=\"title\"\r\n\r\n"
                + "Great Expectations (benchmark)\r\n"
                + "--" + boundary + "\r\n"
                + "Content-Disposition: form-data; name=\"file\"; filename=\"" + novel.getFileName() + "\"\r\n"
                + "Content-Type: text/plain\r\n\r\n";
        String tail = "\r\n--" + boundary + "--\r\n";
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + "/v1/documents"))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArrays(List.of(
                        head.getBytes(StandardCharsets.UTF_8), file, tail.getBytes(StandardCharsets.UTF_8))));
        HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 202 && response.statusCode() != 200) {
            throw new IllegalStateException("upload: HTTP " + response.statusCode() + ": " + response.body());
        }
        return response.body();
    }

    /** The stages array of a document view, in order (Jackson writes record fields in declaration order). */
    static List<Stage> stages(String view) {
        int at = view.indexOf("\"stages\":[");
        List<Stage> stages = new ArrayList<>();
        if (at < 0) {
            return stages;
        }
        Matcher m = Pattern.compile("\"name\":\"([^\"]+)\",\"status\":\"([A-Z_]+)\"").matcher(view);
        m.region(at, view.length());
        while (m.find()) {
            stages.add(new Stage(m.group(1), m.group(2)));
        }
        return stages;
    }

    /** Stage durations the service logged for the document ("Stage embed of document … done in 123 ms"). */
    static Map<String, String> loggedStages(Path serviceLog, String id) throws Exception {
        Pattern line = Pattern.compile("Stage (\\S+) of document " + Pattern.quote(id) + " done in (\\d+) ms");
        Map<String, String> found = new LinkedHashMap<>();
        for (int attempt = 0; attempt < 20 && found.size() < 2; attempt++) { // the log may lag a moment
            found.clear();
            for (String l : Files.readAllLines(serviceLog, StandardCharsets.UTF_8)) {
                Matcher m = line.matcher(l);
                if (m.find()) {
                    found.put(m.group(1), m.group(2));
                }
            }
            if (found.size() < 2) {
                Thread.sleep(100);
            }
        }
        return found;
    }

    // ---------------------------------------------------------------- search

    static final class Latencies {
        final double[] clientMs = new double[MEASURED_PER_MODE];
        final double[] serverMs = new double[MEASURED_PER_MODE];
        int emptyResults;
    }

    static Map<String, Latencies> search(String base, String id) throws Exception {
        log("search warm-up: " + WARMUP_PER_MODE + " queries per mode");
        for (int i = 0; i < WARMUP_PER_MODE; i++) {
            for (String mode : MODES) {
                query(base, id, mode, QUESTIONS.get((QUESTIONS.size() - 1 - i) % QUESTIONS.size()));
            }
        }
        log("search: " + MEASURED_PER_MODE + " measured queries per mode, modes interleaved");
        Map<String, Latencies> result = new LinkedHashMap<>();
        MODES.forEach(m -> result.put(m, new Latencies()));
        for (int i = 0; i < MEASURED_PER_MODE; i++) {
            String question = QUESTIONS.get(i % QUESTIONS.size());
            for (int j = 0; j < MODES.size(); j++) {
                String mode = MODES.get((i + j) % MODES.size()); // rotate which mode goes first
                long start = System.nanoTime();
                String body = query(base, id, mode, question);
                double ms = (System.nanoTime() - start) / 1e6;
                Latencies l = result.get(mode);
                l.clientMs[i] = ms;
                l.serverMs[i] = Double.parseDouble(rawField(body, "tookMs"));
                if (body.contains("\"hits\":[]")) {
                    l.emptyResults++;
                }
            }
        }
        return result;
    }

    static String query(String base, String id, String mode, String question) throws Exception {
        String json = "{\"documentIds\":[\"" + id + "\"],\"query\":\"" + escape(question) + "\",\"mode\":\"" + mode
                + "\",\"k\":" + K + "}";
        return send(HttpRequest.newBuilder(URI.create(base + "/v1/search"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)), 200);
    }

    // ---------------------------------------------------------------- report

    static void print(Path novel, Ingestion in, Map<String, String> serverStageMs, Map<String, Latencies> lat)
            throws IOException {
        StringBuilder out = new StringBuilder();
        String date = ZonedDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm z", Locale.ROOT));
        out.append("### Benchmark: ").append(novel.getFileName()).append("\n\n");
        out.append("| | |\n|---|---|\n");
        out.append("| Date | ").append(date).append(" |\n");
        out.append("| Machine | ").append(nproc()).append(" CPUs (nproc), ").append(memTotal()).append(" RAM, ")
                .append(cpuModel()).append(" |\n");
        out.append("| JDK | ").append(System.getProperty("java.vm.vendor")).append(' ')
                .append(System.getProperty("java.runtime.version")).append(" |\n");
        out.append(String.format(Locale.ROOT, "| Document | %,d bytes, %,d tokens, %,d chunks |%n",
                Files.size(novel), in.tokenCount, in.chunkCount));
        out.append("\n");

        out.append("| Ingestion stage | Seconds (polled, 100 ms) | Tokens/s | Server-logged ms |\n");
        out.append("|---|---:|---:|---:|\n");
        for (var e : in.stageSeconds.entrySet()) {
            String outcome = in.stageOutcome.get(e.getKey());
            String name = e.getKey() + ("DONE".equals(outcome) ? "" : " (" + outcome + ")");
            out.append(String.format(Locale.ROOT, "| %s | %.2f | %s | %s |%n", name, e.getValue(),
                    rate(in.tokenCount, e.getValue()), serverStageMs.getOrDefault(e.getKey(), "–")));
        }
        out.append(String.format(Locale.ROOT, "| **total** (POST → READY) | %.2f | %s | – |%n", in.totalSeconds,
                rate(in.tokenCount, in.totalSeconds)));
        out.append("\n");

        out.append(String.format(Locale.ROOT,
                "| Search (k=%d, %d queries, %d warm-up) | p50 ms | p95 ms | mean ms | server tookMs p50 | p95 | mean |%n",
                K, MEASURED_PER_MODE, WARMUP_PER_MODE));
        out.append("|---|---:|---:|---:|---:|---:|---:|\n");
        for (var e : lat.entrySet()) {
            Latencies l = e.getValue();
            out.append(String.format(Locale.ROOT, "| %s | %.1f | %.1f | %.1f | %.0f | %.0f | %.1f |%n", e.getKey(),
                    pct(l.clientMs, 50), pct(l.clientMs, 95), mean(l.clientMs),
                    pct(l.serverMs, 50), pct(l.serverMs, 95), mean(l.serverMs)));
        }
        out.append("\n");
        double hybrid = pct(lat.get("hybrid").clientMs, 50);
        out.append(String.format(Locale.ROOT,
                "Fusion cost (client p50): hybrid / vector = %.2f×, hybrid / keyword = %.2f×%n",
                hybrid / pct(lat.get("vector").clientMs, 50), hybrid / pct(lat.get("keyword").clientMs, 50)));
        int empty = lat.values().stream().mapToInt(l -> l.emptyResults).sum();
        if (empty > 0) {
            out.append("\nNote: ").append(empty).append(" measured queries returned no hits.\n");
        }
        System.out.println();
        System.out.print(out);
    }

    static String rate(int tokens, double seconds) {
        return seconds > 0 ? String.format(Locale.ROOT, "%,.0f", tokens / seconds) : "n/a (< poll interval)";
    }

    /** Nearest-rank percentile. */
    static double pct(double[] values, int p) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }

    static double mean(double[] values) {
        return Arrays.stream(values).average().orElse(Double.NaN);
    }

    static String nproc() {
        try {
            Process p = new ProcessBuilder("nproc").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (p.waitFor() == 0 && out.matches("\\d+")) {
                return out;
            }
        } catch (IOException | InterruptedException ignored) {
            // fall through
        }
        return String.valueOf(Runtime.getRuntime().availableProcessors());
    }

    static String memTotal() {
        String kb = grep(Path.of("/proc/meminfo"), "MemTotal:\\s+(\\d+) kB");
        return kb == null ? "? GiB" : String.format(Locale.ROOT, "%.1f GiB", Long.parseLong(kb) / 1024.0 / 1024.0);
    }

    static String cpuModel() {
        String model = grep(Path.of("/proc/cpuinfo"), "model name\\s*:\\s*(.+)");
        return model == null ? System.getProperty("os.arch") : model.trim().replaceAll("\\s+", " ");
    }

    static String grep(Path file, String regex) {
        try {
            Matcher m = Pattern.compile(regex).matcher(Files.readString(file));
            return m.find() ? m.group(1) : null;
        } catch (IOException e) {
            return null;
        }
    }

    // ---------------------------------------------------------------- HTTP and JSON helpers

    static String send(HttpRequest.Builder request, int expected) throws Exception {
        HttpResponse<String> response = HTTP.send(request.timeout(Duration.ofSeconds(60)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != expected) {
            throw new IllegalStateException(request.build().method() + " " + request.build().uri() + ": HTTP "
                    + response.statusCode() + ": " + response.body());
        }
        return response.body();
    }

    /** The first string value of a top-level field (fields of interest precede any user text). */
    static String field(String json, String name) {
        Matcher m = Pattern.compile("\"" + Pattern.quote(name) + "\":\"([^\"]*)\"").matcher(json);
        if (!m.find()) {
            throw new IllegalStateException("no \"" + name + "\" in " + json);
        }
        return m.group(1);
    }

    /** The first number or boolean value of a field. */
    static String rawField(String json, String name) {
        Matcher m = Pattern.compile("\"" + Pattern.quote(name) + "\":(-?[0-9.]+|true|false)").matcher(json);
        if (!m.find()) {
            throw new IllegalStateException("no \"" + name + "\" in " + json);
        }
        return m.group(1);
    }

    static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    static void log(String message) {
        System.err.println("[bench] " + message);
    }
}
