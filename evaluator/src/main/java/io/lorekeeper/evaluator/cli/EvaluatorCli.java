package io.lorekeeper.evaluator.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.lorekeeper.evaluator.ConfidenceFit;
import io.lorekeeper.evaluator.CrossValidation;
import io.lorekeeper.evaluator.Datasets;
import io.lorekeeper.evaluator.EvalItem;
import io.lorekeeper.evaluator.EvalRunner;
import io.lorekeeper.evaluator.Report;
import io.lorekeeper.evaluator.Ruler;
import io.lorekeeper.evaluator.ServiceClient;
import io.lorekeeper.evaluator.SpanRankerFit;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * The command-line evaluation: drives a running Lorekeeper (this machine's or a remote deployment) over its HTTP API,
 * writes the report (report.json, report.md, accuracy-vs-tokens.svg) and exits 0 when done, 2 when more than half of
 * the questions failed, 1 on an error. Replaces the service's former {@code eval} profile; the option names are the
 * same, with or without their {@code lorekeeper.eval.} prefix, as {@code --name=value} or {@code --name value}.
 *
 * <pre>
 * java -jar evaluator/target/lorekeeper-evaluator-0.1.0-SNAPSHOT-exec.jar --base-url http://localhost:8080 \
 *   --api-key lk_... --dataset locomo --path ../shared/data/locomo/locomo10_dev3.json \
 *   --strategies extractive,rag --limit 50 --out eval-results/locomo
 * </pre>
 *
 * <p>The LLM judge ({@code judge=true}) is not run here: the command line has no model. {@code POST /v1/evaluations}
 * with {@code "judge": true} grades with the service's LLM (its {@code judge} role).
 */
public final class EvaluatorCli {

    static {
        // before any logger exists: the command line's own logback set-up (a logback.xml would also take over the
        // service's logging, which has this library on its class path)
        if (System.getProperty("logback.configurationFile") == null) {
            System.setProperty("logback.configurationFile", "lorekeeper-evaluator-logback.xml");
        }
    }

    private static final Logger log = LoggerFactory.getLogger(EvaluatorCli.class);
    private static final String PREFIX = "lorekeeper.eval.";

    /** The options and their defaults (the former {@code lorekeeper.eval.*} properties). */
    static final Map<String, String> DEFAULTS = defaults();

    private static Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("base-url", "http://localhost:8080");
        d.put("api-key", "");
        d.put("dataset", "locomo");
        d.put("path", "");
        d.put("strategies", "extractive");
        d.put("limit", "0");
        d.put("concurrency", "4");
        d.put("search-k", "100");
        d.put("search-tokens", "1500");
        d.put("options", "");
        d.put("out", "eval-results");
        d.put("question-timeout", "10m");
        d.put("ingest-timeout", "30m");
        d.put("ruler.tasks", String.join(",", Ruler.TASKS));
        d.put("ruler.length", "4000");
        d.put("ruler.seed", "42");
        d.put("ruler.count", "10");
        d.put("judge", "false");
        d.put("fit-confidence", "");
        d.put("fit-passages", "");
        d.put("fit-features", "");
        d.put("fit-spans", "");
        d.put("cross-validate", "");
        // empty: where the fit's model ships (confidence.json or answer-spans.json)
        d.put("fit-out", "");
        return java.util.Collections.unmodifiableMap(d);
    }

    private static final Set<String> FLAGS = Set.of("judge");

    private EvaluatorCli() {}

    public static void main(String[] args) {
        int code;
        try {
            code = run(args);
        } catch (IllegalArgumentException e) {
            // A setting is wrong: the message says which; a stack trace would only bury it.
            log.error("evaluation not started: {}", e.getMessage());
            code = 1;
        } catch (Exception e) {
            log.error("evaluation failed", e);
            code = 1;
        }
        System.exit(code);
    }

    /** Runs the command; returns the exit status. */
    static int run(String[] args) throws InterruptedException {
        Map<String, String> o = parse(args);
        if (!o.get("fit-confidence").isBlank()) {
            return fitConfidence(o, ConfidenceFit.Target.ANSWER, o.get("fit-confidence"));
        }
        if (!o.get("fit-passages").isBlank()) {
            return fitConfidence(o, ConfidenceFit.Target.PASSAGES, o.get("fit-passages"));
        }
        if (!o.get("fit-spans").isBlank()) {
            return fitSpans(o);
        }
        if (!o.get("cross-validate").isBlank()) {
            return crossValidate(o);
        }
        return evaluate(o);
    }

    /** Evaluates the dataset against the service and writes the report; 2 when more than half the questions failed. */
    private static int evaluate(Map<String, String> o) throws InterruptedException {
        if (Boolean.parseBoolean(o.get("judge"))) {
            throw new IllegalArgumentException("the command line has no LLM to judge with: start the evaluation on the "
                    + "service (POST /v1/evaluations with \"judge\": true), which grades with its judge role");
        }
        String dataset = o.get("dataset");
        String path = o.get("path");
        if (path.isBlank()) {
            throw new IllegalArgumentException("set --path (lorekeeper.eval.path) to the dataset's file or folder");
        }
        int limit = Integer.parseInt(o.get("limit"));
        List<EvalItem> items = dataset.equals("ruler")
                ? Ruler.generate(
                        Path.of(path),
                        list(o.get("ruler.tasks")),
                        Integer.parseInt(o.get("ruler.length")),
                        Long.parseLong(o.get("ruler.seed")),
                        Integer.parseInt(o.get("ruler.count")))
                : Datasets.load(dataset, Path.of(path), limit);
        if (limit > 0 && items.size() > limit) {
            items = items.subList(0, limit);
        }
        List<String> strategies = list(o.get("strategies"));
        Map<String, Map<String, Object>> options = o.get("options").isBlank()
                ? Map.of()
                : JsonMapper.builder()
                        .build()
                        .readValue(
                                o.get("options"), new TypeReference<LinkedHashMap<String, Map<String, Object>>>() {});
        String base = o.get("base-url");
        log.info("evaluation: {} questions of {} with {} against {}", items.size(), dataset, strategies, base);
        Report report = new EvalRunner(new ServiceClient(base, o.get("api-key")), null)
                .run(
                        new EvalRunner.Request(
                                dataset,
                                items,
                                strategies,
                                options,
                                Integer.parseInt(o.get("concurrency")),
                                Integer.parseInt(o.get("search-k")),
                                Integer.parseInt(o.get("search-tokens")),
                                duration(o.get("question-timeout")),
                                duration(o.get("ingest-timeout"))),
                        (done, total) -> {});
        Path folder = report.write(Path.of(o.get("out")));
        System.out.println(report.markdown());
        log.info("evaluation: report written to {}", folder.toAbsolutePath());
        long failed = report.items().stream()
                .filter(i -> !"DONE".equals(i.reply().status()))
                .count();
        return failed * 2 > report.items().size() ? 2 : 0;
    }

    /**
     * Fits the confidence of the strategy named by {@code strategies} (default extractive) to the reports' results and
     * writes the model where the strategy loads it from; evaluates nothing.
     */
    private static int fitConfidence(Map<String, String> o, ConfidenceFit.Target target, String reports) {
        String strategy = list(o.get("strategies")).getFirst();
        java.util.Set<String> only = new java.util.LinkedHashSet<>(list(o.get("fit-features")));
        ConfidenceFit.Fit fit =
                ConfidenceFit.fit(list(reports).stream().map(Path::of).toList(), strategy, target, only);
        boolean passages = target == ConfidenceFit.Target.PASSAGES;
        String command = "scripts/eval.sh --lorekeeper.eval.strategies=" + strategy
                + (passages ? " --lorekeeper.eval.fit-passages=" : " --lorekeeper.eval.fit-confidence=") + reports
                + (only.isEmpty() ? "" : " --lorekeeper.eval.fit-features=" + String.join(",", only));
        String json = ConfidenceFit.json(fit, command, passages ? "Selective answering" : "Calibrated confidence");
        String out = fitOut(o, target.resource);
        write(out, json);
        log.info(
                "confidence of {} fitted on {} answers: Brier {} (train), {} on {} held out (its confidences before: {}); written to {}",
                strategy,
                fit.trained(),
                String.format(Locale.ROOT, "%.4f", fit.trainBrier()),
                String.format(Locale.ROOT, "%.4f", fit.heldBrier()),
                fit.held(),
                fit.heldBrierBefore() == null ? "none" : String.format(Locale.ROOT, "%.4f", fit.heldBrierBefore()),
                out);
        System.out.println(json);
        return 0;
    }

    /** Fits the extractive strategy's answer-span ranker on all the reports' items and writes its model. */
    private static int fitSpans(Map<String, String> o) {
        String reports = o.get("fit-spans");
        SpanRankerFit.Chosen chosen =
                SpanRankerFit.fitReports(list(reports).stream().map(Path::of).toList());
        SpanRankerFit.Model model = chosen.model();
        if (model.items() == 0) {
            throw new IllegalArgumentException("no items to fit the span ranker on: the reports hold no extractive "
                    + "answers with answer candidates (the extractive.candidates trace event) that score above 0");
        }
        String json = SpanRankerFit.json(chosen, reports, "scripts/eval.sh --lorekeeper.eval.fit-spans=" + reports);
        String out = fitOut(o, "answer-spans.json");
        write(out, json);
        log.info("answer-span ranker fitted on {} items with {}; written to {}", model.items(), chosen.settings(), out);
        System.out.println(json);
        return 0;
    }

    /** Cross-validates what is fitted to the reports (no service): writes cv.md and cv.json to {@code out}. */
    private static int crossValidate(Map<String, String> o) {
        CrossValidation.Result result = CrossValidation.of(
                list(o.get("cross-validate")).stream().map(Path::of).toList());
        Path folder = CrossValidation.write(result, Path.of(o.get("out")));
        System.out.println(CrossValidation.markdown(result));
        log.info("cross-validation written to {}", folder.resolve("cv.md").toAbsolutePath());
        return 0;
    }

    /** The model file to write: {@code fit-out}, else the strategy's resource of that name. */
    private static String fitOut(Map<String, String> o, String resource) {
        return o.get("fit-out").isBlank() ? "service/src/main/resources/extractive/" + resource : o.get("fit-out");
    }

    private static void write(String path, String text) {
        try {
            Files.writeString(Path.of(path), text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The options given over the defaults; an unknown name is an error (a typo must not evaluate with a default). */
    static Map<String, String> parse(String[] args) {
        Map<String, String> options = new LinkedHashMap<>(DEFAULTS);
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (!arg.startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument " + arg + " (options are --name=value)");
            }
            String name = arg.substring(2);
            String value;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            } else if (FLAGS.contains(strip(name)) && (i + 1 == args.length || args[i + 1].startsWith("--"))) {
                value = "true";
            } else if (i + 1 < args.length) {
                value = args[++i];
            } else {
                throw new IllegalArgumentException("--" + name + " needs a value");
            }
            name = strip(name);
            if (!DEFAULTS.containsKey(name)) {
                throw new IllegalArgumentException("unknown option --" + name + "; known: " + DEFAULTS.keySet());
            }
            options.put(name, value);
        }
        return options;
    }

    private static String strip(String name) {
        return name.startsWith(PREFIX) ? name.substring(PREFIX.length()) : name;
    }

    private static List<String> list(String csv) {
        return Arrays.stream(csv.split(","))
                .map(String::strip)
                .filter(s -> !s.isEmpty())
                .toList();
    }

    /** {@code 10m}, {@code 90s}, {@code 500ms}, {@code 2h} (as the service's settings were written) or ISO-8601. */
    static Duration duration(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        if (t.startsWith("p")) {
            return Duration.parse(t.toUpperCase(Locale.ROOT));
        }
        if (t.endsWith("ms")) {
            return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
        }
        long n = Long.parseLong(t.substring(0, t.length() - 1));
        return switch (t.charAt(t.length() - 1)) {
            case 's' -> Duration.ofSeconds(n);
            case 'm' -> Duration.ofMinutes(n);
            case 'h' -> Duration.ofHours(n);
            case 'd' -> Duration.ofDays(n);
            default -> throw new IllegalArgumentException("not a duration: " + text);
        };
    }
}
