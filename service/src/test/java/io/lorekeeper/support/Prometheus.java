package io.lorekeeper.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One scrape of {@code /actuator/prometheus}, parsed: every sample with its name, labels and value, as a
 * monitoring system would read them. Tests compare two scrapes, since the shared context's counters hold
 * what earlier tests counted.
 */
public record Prometheus(List<Sample> samples) {

    public record Sample(String name, Map<String, String> labels, double value) {}

    private static final Pattern LINE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})?\\s+(\\S+)(\\s+\\S+)?$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    public static Prometheus scrape(Api api) {
        Api.Response response = api.get("/actuator/prometheus");
        assertThat(response.status()).as(response.body()).isEqualTo(200);
        return parse(response.body());
    }

    public static Prometheus parse(String exposition) {
        List<Sample> samples = new ArrayList<>();
        for (String line : exposition.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            Matcher m = LINE.matcher(line.strip());
            if (!m.matches()) {
                throw new AssertionError("not a Prometheus sample line: " + line);
            }
            Map<String, String> labels = new LinkedHashMap<>();
            if (m.group(3) != null) {
                Matcher l = LABEL.matcher(m.group(3));
                while (l.find()) {
                    labels.put(l.group(1), l.group(2));
                }
            }
            samples.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(4))));
        }
        return new Prometheus(samples);
    }

    /** The samples of a metric whose labels include the given ones ({@code "role", "answerer", ...}). */
    public List<Sample> find(String name, String... labels) {
        Map<String, String> wanted = new LinkedHashMap<>();
        for (int i = 0; i < labels.length; i += 2) {
            wanted.put(labels[i], labels[i + 1]);
        }
        return samples.stream()
                .filter(s -> s.name().equals(name))
                .filter(s -> s.labels().entrySet().containsAll(wanted.entrySet()))
                .toList();
    }

    /** The sum of those samples; 0 when there are none (a counter not yet incremented). */
    public double sum(String name, String... labels) {
        return find(name, labels).stream().mapToDouble(Sample::value).sum();
    }

    /** Whether any sample of the metric is exported at all. */
    public boolean has(String name) {
        return samples.stream().anyMatch(s -> s.name().equals(name));
    }

    /** How much the sum grew from an earlier scrape to this one. */
    public double since(Prometheus before, String name, String... labels) {
        return sum(name, labels) - before.sum(name, labels);
    }
}
