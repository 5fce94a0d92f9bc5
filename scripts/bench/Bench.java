// What every benchmark of scripts/bench shares: HTTP calls to the service, the few JSON fields
// read back (by pattern: these programs have no dependencies), percentiles and the machine's
// description for the Markdown blocks they print.

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
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

final class Bench {

    private Bench() {
    }

    static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    // ---------------------------------------------------------------- HTTP

    static String get(String url) throws Exception {
        return send(HttpRequest.newBuilder(URI.create(url)).GET(), 200);
    }

    static String postJson(String url, String json, int... expected) throws Exception {
        return send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)), expected);
    }

    static String send(HttpRequest.Builder request, int... expected) throws Exception {
        HttpResponse<String> response = HTTP.send(request.timeout(Duration.ofMinutes(5)).build(),
                HttpResponse.BodyHandlers.ofString());
        for (int code : expected) {
            if (response.statusCode() == code) {
                return response.body();
            }
        }
        HttpRequest sent = request.build();
        throw new IllegalStateException(sent.method() + " " + sent.uri() + ": HTTP " + response.statusCode() + ": "
                + response.body());
    }

    /** POST → READY of a JSON text document; returns the document view once READY. */
    static String ingestText(String base, String title, String text, Duration timeout) throws Exception {
        return ingestText(base, title, text, "standard", timeout);
    }

    static String ingestText(String base, String title, String text, String profile, Duration timeout) throws Exception {
        String accepted = postJson(base + "/v1/documents", "{\"title\":\"" + escape(title) + "\",\"text\":\"" + escape(text)
                + "\",\"profile\":\"" + profile + "\"}", 202, 200);
        return awaitReady(base, field(accepted, "id"), timeout);
    }

    /** Waits until no stage of the document is PENDING or RUNNING (enrichment stages run after READY). */
    static String awaitSettled(String base, String id, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            String view = get(base + "/v1/documents/" + id);
            if (!view.contains("\"status\":\"PENDING\"") && !view.contains("\"status\":\"RUNNING\"")) {
                return view;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("document " + id + " still building after " + timeout + ": " + view);
            }
            Thread.sleep(500);
        }
    }

    static String awaitReady(String base, String id, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            String view = get(base + "/v1/documents/" + id);
            String status = field(view, "status");
            if (status.equals("READY")) {
                return view;
            }
            if (status.equals("FAILED")) {
                throw new IllegalStateException("ingestion of " + id + " failed: " + view);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("document " + id + " not READY after " + timeout + ": " + view);
            }
            Thread.sleep(200);
        }
    }

    // ---------------------------------------------------------------- JSON fields

    /** The first string value of a field (fields of interest precede any user text). */
    static String field(String json, String name) {
        Matcher m = Pattern.compile("\"" + Pattern.quote(name) + "\":\"([^\"]*)\"").matcher(json);
        if (!m.find()) {
            throw new IllegalStateException("no \"" + name + "\" in " + abbreviate(json));
        }
        return m.group(1);
    }

    /** The first number or boolean value of a field. */
    static String rawField(String json, String name) {
        Matcher m = Pattern.compile("\"" + Pattern.quote(name) + "\":(-?[0-9.]+|true|false)").matcher(json);
        if (!m.find()) {
            throw new IllegalStateException("no \"" + name + "\" in " + abbreviate(json));
        }
        return m.group(1);
    }

    /** The last number value of a field, or -1. */
    static long lastNumber(String json, String name) {
        Matcher m = Pattern.compile("\"" + Pattern.quote(name) + "\":(\\d+)").matcher(json);
        long found = -1;
        while (m.find()) {
            found = Long.parseLong(m.group(1));
        }
        return found;
    }

    static String escape(String s) {
        StringBuilder out = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }

    static String quoteAll(List<String> values) {
        List<String> quoted = new ArrayList<>();
        values.forEach(v -> quoted.add("\"" + escape(v) + "\""));
        return "[" + String.join(",", quoted) + "]";
    }

    private static String abbreviate(String s) {
        return s.length() > 400 ? s.substring(0, 400) + "…" : s;
    }

    // ---------------------------------------------------------------- statistics

    /** Nearest-rank percentile. */
    static double pct(double[] values, int p) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }

    static double mean(double[] values) {
        return Arrays.stream(values).average().orElse(Double.NaN);
    }

    // ---------------------------------------------------------------- the machine

    /** The header rows of every benchmark table: date, machine, JDK. */
    static String header() {
        String date = ZonedDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm z", Locale.ROOT));
        return "| | |\n|---|---|\n"
                + "| Date | " + date + " |\n"
                + "| Machine | " + nproc() + " CPUs (nproc), " + memTotal() + " RAM, " + cpuModel() + " |\n"
                + "| JDK (service) | " + System.getProperty("java.vm.vendor") + " " + System.getProperty("java.runtime.version") + " |\n";
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

    static void log(String message) {
        System.err.println("[bench] " + message);
    }
}
