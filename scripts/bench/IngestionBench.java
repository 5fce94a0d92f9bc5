// Ingestion throughput of the novels, one at a time, POST → READY in total and per stage (the
// service's own "Stage X of document Y done in N ms" log lines), and its ratio to the raw speed of the embedding model on the same chunks, measured by
// the service's embedding-benchmark command after the service has stopped (see benchmark.sh).

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

final class IngestionBench {

    private IngestionBench() {
    }

    private static final List<String> STAGES = List.of("segment", "embed");

    /** Ingests each novel, prints the stage table and saves what the ratio needs into {@code state}. */
    static void run(String base, List<Path> novels, Path serviceLog, Path state) throws Exception {
        StringBuilder out = new StringBuilder();
        out.append("### Ingestion\n\n").append(Bench.header()).append('\n');
        out.append("| Novel | Tokens | Chunks | segment s | embed s | other stages | POST → READY s | Tokens/s |\n");
        out.append("|---|---:|---:|---:|---:|---|---:|---:|\n");
        Properties p = new Properties();
        List<String> ids = new ArrayList<>();
        for (Path novel : novels) {
            Ingestion in = ingest(base, novel);
            Map<String, String> logged = loggedStages(serviceLog, in.id());
            out.append(String.format(Locale.ROOT, "| %s | %,d | %,d |", novel.getFileName(), in.tokenCount(), in.chunkCount()));
            for (String stage : STAGES) {
                String ms = logged.get(stage);
                out.append(ms == null ? " – |" : String.format(Locale.ROOT, " %.1f |", Long.parseLong(ms) / 1000.0));
            }
            List<String> others = new ArrayList<>();
            in.stageOutcome().forEach((stage, outcome) -> {
                if (!STAGES.contains(stage)) {
                    others.add(stage + " " + outcome.toLowerCase(Locale.ROOT));
                }
            });
            out.append(' ').append(others.isEmpty() ? "–" : String.join(", ", others)).append(" |");
            out.append(String.format(Locale.ROOT, " %.1f | %s |%n", in.totalSeconds(), rate(in.tokenCount(), in.totalSeconds())));
            ids.add(in.id());
            p.setProperty(in.id() + ".name", novel.getFileName().toString());
            p.setProperty(in.id() + ".tokens", String.valueOf(in.tokenCount()));
            p.setProperty(in.id() + ".totalSeconds", String.valueOf(in.totalSeconds()));
            p.setProperty(in.id() + ".embedMs", logged.getOrDefault("embed", ""));
        }
        System.out.println();
        System.out.print(out);
        p.setProperty("documents", String.join(",", ids));
        try (var w = Files.newBufferedWriter(state)) {
            p.store(w, "ingestion benchmark");
        }
    }

    /** Prints ingestion (and its embed stage) against the raw model on the same chunks, per novel. */
    static void ratio(Path state, Path rawLines) throws Exception {
        Properties p = new Properties();
        try (var r = Files.newBufferedReader(state)) {
            p.load(r);
        }
        Pattern line = Pattern.compile("raw-embedding document=(\\S+) chunks=(\\d+) tokens=(\\d+) seconds=([0-9.]+)");
        StringBuilder out = new StringBuilder("\n| Baseline: the embedding model alone on the same chunks (batches of 64, no database) | Raw tokens/s |"
                + " embed stage tokens/s (÷ raw) | POST → READY tokens/s (÷ raw) |\n|---|---:|---:|---:|\n");
        for (String l : Files.readAllLines(rawLines)) {
            Matcher m = line.matcher(l);
            if (!m.find()) {
                continue;
            }
            String id = m.group(1);
            double raw = Long.parseLong(m.group(3)) / Double.parseDouble(m.group(4));
            long tokens = Long.parseLong(p.getProperty(id + ".tokens"));
            double ingest = tokens / Double.parseDouble(p.getProperty(id + ".totalSeconds"));
            String embedMs = p.getProperty(id + ".embedMs", "");
            String embed = "–";
            if (!embedMs.isEmpty()) {
                double e = tokens / (Long.parseLong(embedMs) / 1000.0);
                embed = String.format(Locale.ROOT, "%,.0f (%.2f)", e, e / raw);
            }
            out.append(String.format(Locale.ROOT, "| %s | %,.0f | %s | %,.0f (%.2f) |%n", p.getProperty(id + ".name"), raw, embed, ingest,
                    ingest / raw));
        }
        System.out.print(out);
    }

    static String rate(int tokens, double seconds) {
        return seconds > 0 ? String.format(Locale.ROOT, "%,.0f", tokens / seconds) : "n/a";
    }

    record Stage(String name, String status) {
    }

    /** One novel POST → READY: the document's counts, the client-timed total and each stage's final status. */
    record Ingestion(String id, int tokenCount, int chunkCount, double totalSeconds, Map<String, String> stageOutcome) {
    }

    static Ingestion ingest(String base, Path novel) throws Exception {
        byte[] file = Files.readAllBytes(novel);
        Bench.log("uploading " + novel.getFileName() + " (" + file.length + " bytes)");
        long t0 = System.nanoTime();
        String accepted = upload(base, novel, file);
        String id = Bench.field(accepted, "id");
        if (!"true".equals(Bench.rawField(accepted, "created"))) {
            throw new IllegalStateException(novel.getFileName() + " was already stored as " + id + ": the database was not reset");
        }
        String view = Bench.awaitReady(base, id, Duration.ofMinutes(30));
        double seconds = (System.nanoTime() - t0) / 1e9;
        Map<String, String> outcomes = new LinkedHashMap<>();
        stages(view).forEach(stage -> outcomes.put(stage.name(), stage.status()));
        Ingestion result = new Ingestion(id, Integer.parseInt(Bench.rawField(view, "tokenCount")),
                Integer.parseInt(Bench.rawField(view, "chunkCount")), seconds, outcomes);
        Bench.log(String.format(Locale.ROOT, "READY: %d tokens, %d chunks in %.2f s", result.tokenCount(), result.chunkCount(), seconds));
        return result;
    }

    static String upload(String base, Path novel, byte[] file) throws Exception {
        String boundary = "----lorekeeper-bench-" + System.nanoTime();
        String head = "--" + boundary + "\r\n"
                + "Content-Disposition: form-data; name=\"title\"\r\n\r\n"
                + novel.getFileName() + " (benchmark)\r\n"
                + "--" + boundary + "\r\n"
                + "Content-Disposition: form-data; name=\"file\"; filename=\"" + novel.getFileName() + "\"\r\n"
                + "Content-Type: text/plain\r\n\r\n";
        String tail = "\r\n--" + boundary + "--\r\n";
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + "/v1/documents/files"))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArrays(List.of(
                        head.getBytes(StandardCharsets.UTF_8), file, tail.getBytes(StandardCharsets.UTF_8))));
        HttpResponse<String> response = Bench.HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
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

}
