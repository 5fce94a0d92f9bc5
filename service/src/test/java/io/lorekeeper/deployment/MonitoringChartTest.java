package io.lorekeeper.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.yaml.snakeyaml.Yaml;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.TemplateCommand;

import io.lorekeeper.llm.ScriptedChatModel;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.LlmIntegrationTest;
import io.lorekeeper.support.Prometheus;
import io.lorekeeper.support.TestDocuments;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The chart's monitoring objects: the alerting rules pass {@code promtool check rules}; the PodMonitor,
 * PrometheusRule and dashboard render only when asked for, from the files in the chart; and every metric
 * the dashboard and the rules name is one a running service exports.
 */
@LlmIntegrationTest
class MonitoringChartTest {

    private static final Path CHART = Path.of("helm", "lorekeeper").toAbsolutePath();
    private static final Path RULES = CHART.resolve("files/prometheus-rules.yaml");
    private static final Path DASHBOARD = CHART.resolve("files/grafana-dashboard.json");
    /** A metric name in a PromQL expression: an identifier followed by a selector, a range or an operator. */
    private static final Pattern METRIC = Pattern.compile("\\b((?:lorekeeper|gen_ai|http_server)_[a-z0-9_]+)\\b");

    @Autowired
    Api api;

    @Autowired
    ScriptedChatModel model;

    @Test
    void promtoolAcceptsTheAlertingRules() throws IOException, InterruptedException {
        Path promtool = Path.of("/usr/bin/promtool");
        if (System.getenv("CI") == null) {
            Assumptions.assumeTrue(Files.isExecutable(promtool), "promtool missing: apt-get install prometheus");
        }
        Process check = new ProcessBuilder(promtool.toString(), "check", "rules", RULES.toString())
                .redirectErrorStream(true)
                .start();
        assertThat(check.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String output = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(check.exitValue()).as(output).isZero();
        assertThat(output).contains("SUCCESS: 6 rules found");
    }

    @Test
    void podMonitorRulesAndDashboardRenderOnlyWhenEnabledFromTheChartsFiles() throws IOException {
        assertThat(kinds(render())).doesNotContain("PodMonitor", "PrometheusRule");

        List<Map<String, Object>> docs = render(
                "monitoring.podMonitor.enabled", "true",
                "monitoring.prometheusRule.enabled", "true",
                "monitoring.grafanaDashboard.enabled", "true",
                "tracing.otlpEndpoint", "http://collector:4318/v1/traces");

        Map<String, Object> podMonitor = one(docs, "PodMonitor");
        assertThat(podMonitor.toString()).contains("path=/actuator/prometheus", "port=http");
        Map<String, Object> rule = one(docs, "PrometheusRule");
        Map<String, Object> rules = new Yaml().load(Files.readString(RULES));
        assertThat(rule.get("spec")).as("the rules file, unchanged").isEqualTo(rules);
        Map<String, Object> dashboard = docs.stream()
                .filter(d -> "ConfigMap".equals(d.get("kind")) && d.toString().contains("lorekeeper.json"))
                .findFirst()
                .orElseThrow();
        String json = (String) ((Map<?, ?>) dashboard.get("data")).get("lorekeeper.json");
        assertThat(JsonMapper.builder().build().readTree(json))
                .isEqualTo(JsonMapper.builder().build().readTree(Files.readString(DASHBOARD)));
        assertThat(one(
                                docs.stream()
                                        .filter(d -> !d.toString().contains("lorekeeper.json"))
                                        .toList(),
                                "ConfigMap")
                        .get("data")
                        .toString())
                .contains("MANAGEMENT_OPENTELEMETRY_TRACING_EXPORT_OTLP_ENDPOINT=http://collector:4318/v1/traces");
    }

    @Test
    void everyMetricTheDashboardAndTheRulesNameIsExported() throws IOException {
        Set<String> named = namedMetrics();
        assertThat(named).hasSizeGreaterThan(20);

        // what makes the lazily created series appear: a document, questions, a retried call, an unusable reply
        Map<String, Object> body = new java.util.LinkedHashMap<>(
                TestDocuments.aText("The keeper's ledger names the Morwenna. It sank in 1911.")
                        .titled("Ledger")
                        .build());
        body.put("profile", "retrieval-only");
        UUID doc = api.ingest(body);
        model.reset();
        model.on("rag/answer")
                .failOnce(new java.io.UncheckedIOException(new IOException("connection reset")))
                .reply("{\"answer\": \"the Morwenna\", \"confidence\": 7}");
        model.on("last-resort/answer").reply("The Morwenna.");
        for (String strategy : List.of("extractive", "rag")) {
            JsonNode answer =
                    api.ask(Map.of("documentIds", List.of(doc), "question", "Which ship sank?", "strategy", strategy));
            assertThat(answer.get("status").asString()).as(answer.toString()).isIn("DONE", "FAILED");
        }
        api.post("/v1/search", Map.of("query", "ship", "mode", "hybrid", "documentIds", List.of(doc)));
        api.get("/v1/documents/" + UUID.randomUUID()); // a 404 is still an http_server_requests sample

        Prometheus scrape = Prometheus.scrape(api);
        Set<String> exported = new TreeSet<>();
        scrape.samples().forEach(s -> exported.add(s.name()));
        // Spring AI's own metrics come only from the real client stack: LlmMetricsTest checks those
        Set<String> springAi = new TreeSet<>(named);
        springAi.removeIf(n -> !n.startsWith("gen_ai_"));
        named.removeAll(springAi);
        assertThat(springAi).isSubsetOf(io.lorekeeper.llm.LlmMetricsTest.SPRING_AI_METRICS);
        assertThat(named)
                .as("named by the dashboard or the rules, not exported")
                .isSubsetOf(exported);
    }

    /** The metric names in the rules' expressions and the dashboard's queries. */
    static Set<String> namedMetrics() throws IOException {
        List<String> expressions = new ArrayList<>();
        Map<String, Object> rules = new Yaml().load(Files.readString(RULES));
        for (Object group : (List<?>) rules.get("groups")) {
            for (Object rule : (List<?>) ((Map<?, ?>) group).get("rules")) {
                expressions.add(String.valueOf(((Map<?, ?>) rule).get("expr")));
            }
        }
        JsonNode dashboard = JsonMapper.builder().build().readTree(Files.readString(DASHBOARD));
        dashboard.findValues("expr").forEach(e -> expressions.add(e.asString()));
        Set<String> names = new TreeSet<>();
        for (String expression : expressions) {
            // label names (in "by (...)", "without (...)" and selectors) are not metrics
            Matcher m = METRIC.matcher(
                    expression.replaceAll("(by|without)\\s*\\([^)]*\\)", "").replaceAll("\\{[^}]*}", ""));
            while (m.find()) {
                names.add(m.group(1));
            }
        }
        return names;
    }

    private static List<String> kinds(List<Map<String, Object>> docs) {
        return docs.stream().map(d -> String.valueOf(d.get("kind"))).toList();
    }

    private static Map<String, Object> one(List<Map<String, Object>> docs, String kind) {
        List<Map<String, Object>> found =
                docs.stream().filter(d -> kind.equals(d.get("kind"))).toList();
        assertThat(found).as(kind).hasSize(1);
        return found.getFirst();
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> render(String... keyValues) {
        TemplateCommand template = new Helm(CHART)
                .template()
                .withName("lk")
                .withNamespace("lorekeeper")
                .set("security.adminKey.existingSecret", "lk-admin-key");
        for (int i = 0; i < keyValues.length; i += 2) {
            template.set(keyValues[i], keyValues[i + 1]);
        }
        List<Map<String, Object>> docs = new ArrayList<>();
        for (Object doc : new Yaml().loadAll(template.call())) {
            if (doc != null) {
                docs.add((Map<String, Object>) doc);
            }
        }
        return docs;
    }
}
