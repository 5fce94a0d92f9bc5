package io.lorekeeper.eval;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Profile;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

import io.lorekeeper.llm.LlmGateway;
import io.lorekeeper.security.CurrentTenant;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * The command-line evaluation: with the {@code eval} profile the service starts as usual, runs the
 * evaluation against its own HTTP port (or {@code lorekeeper.eval.base-url}), writes the report and
 * exits: 0 when done, 2 when more than half of the questions failed, 1 on an error.
 * {@code lorekeeper.eval.judge=true} has the LLM judge grade every answer; it runs here, with this
 * process's LLM settings (the {@code judge} role), also when the evaluated service is remote.
 *
 * <pre>
 * java -jar lorekeeper.jar --spring.profiles.active=eval --lorekeeper.eval.dataset=locomo \
 *   --lorekeeper.eval.path=../shared/data/locomo/locomo10_dev3.json --lorekeeper.eval.strategies=extractive,rag \
 *   --lorekeeper.eval.limit=50 --lorekeeper.eval.out=eval-results
 * </pre>
 */
@Component
@Profile("eval")
class EvalCommand implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(EvalCommand.class);

    private final ConfigurableApplicationContext context;
    private final Environment env;
    private final LlmGateway gateway;

    EvalCommand(ConfigurableApplicationContext context, Environment env, LlmGateway gateway) {
        this.context = context;
        this.env = env;
        this.gateway = gateway;
    }

    @Value("${lorekeeper.eval.dataset:locomo}")
    String dataset;

    @Value("${lorekeeper.eval.path:}")
    String path;

    @Value("${lorekeeper.eval.strategies:extractive}")
    String strategies;

    @Value("${lorekeeper.eval.limit:0}")
    int limit;

    @Value("${lorekeeper.eval.concurrency:4}")
    int concurrency;

    @Value("${lorekeeper.eval.search-k:100}")
    int searchK;

    @Value("${lorekeeper.eval.search-tokens:1500}")
    int searchTokens;

    @Value("${lorekeeper.eval.options:}")
    String options;

    @Value("${lorekeeper.eval.out:eval-results}")
    String out;

    @Value("${lorekeeper.eval.base-url:}")
    String baseUrl;

    @Value("${lorekeeper.eval.api-key:}")
    String apiKey;

    @Value("${lorekeeper.eval.question-timeout:10m}")
    Duration questionTimeout;

    @Value("${lorekeeper.eval.ruler.tasks:niah_single,niah_multikey,niah_multivalue,niah_multiquery,vt}")
    String rulerTasks;

    @Value("${lorekeeper.eval.ruler.length:4000}")
    int rulerLength;

    @Value("${lorekeeper.eval.ruler.seed:42}")
    long rulerSeed;

    @Value("${lorekeeper.eval.ruler.count:10}")
    int rulerCount;

    @Value("${lorekeeper.eval.judge:false}")
    boolean judge;

    @Value("${lorekeeper.eval.exit:true}")
    boolean exit;

    @Value("${lorekeeper.eval.fit-confidence:}")
    String fitReports;

    @Value("${lorekeeper.eval.fit-out:service/src/main/resources/extractive/confidence.json}")
    String fitOut;

    @Override
    public void run(ApplicationArguments args) throws Exception {
        int code;
        try {
            code = evaluate();
        } catch (IllegalArgumentException e) {
            // A setting is wrong: the message says which; a stack trace would only bury it.
            log.error("evaluation not started: {}", e.getMessage());
            code = 1;
        } catch (Exception e) {
            log.error("evaluation failed", e);
            code = 1;
        }
        if (exit) {
            int status = code;
            System.exit(SpringApplication.exit(context, () -> status));
        }
    }

    int evaluate() throws InterruptedException {
        if (!fitReports.isBlank()) {
            return fitConfidence();
        }
        if (path.isBlank()) {
            throw new IllegalArgumentException("set lorekeeper.eval.path to the dataset's file or folder");
        }
        if (judge && !gateway.isConfigured()) {
            throw new IllegalArgumentException(
                    "lorekeeper.eval.judge=true needs an LLM for the judge: set OPENAI_API_KEY or "
                            + "LOREKEEPER_LLM_BASE_URL (or LK_EVAL_SIMULATED=1 for the simulated model)");
        }
        List<EvalItem> items = dataset.equals("ruler")
                ? Ruler.generate(
                        Path.of(path),
                        Arrays.stream(rulerTasks.split(",")).map(String::strip).toList(),
                        rulerLength,
                        rulerSeed,
                        rulerCount)
                : Datasets.load(dataset, Path.of(path), limit);
        if (limit > 0 && items.size() > limit) {
            items = items.subList(0, limit);
        }
        List<String> names = Arrays.stream(strategies.split(","))
                .map(String::strip)
                .filter(s -> !s.isEmpty())
                .toList();
        Map<String, Map<String, Object>> perStrategy = options.isBlank()
                ? Map.of()
                : JsonMapper.builder()
                        .build()
                        .readValue(options, new TypeReference<LinkedHashMap<String, Map<String, Object>>>() {});
        String base = baseUrl.isBlank() ? "http://localhost:" + env.getRequiredProperty("local.server.port") : baseUrl;
        log.info(
                "evaluation: {} questions of {} with {} against {}{}",
                items.size(),
                dataset,
                names,
                base,
                judge ? ", LLM judge on" : "");
        // No request here to take a tenant from: the judge's calls are the operator's, logged under the default tenant.
        Report report = new EvalRunner(
                        new ServiceClient(base, apiKey), judge ? new Judge(gateway, CurrentTenant.DEFAULT) : null)
                .run(
                        new EvalRunner.Request(
                                dataset,
                                items,
                                names,
                                perStrategy,
                                concurrency,
                                searchK,
                                searchTokens,
                                questionTimeout,
                                null),
                        (d, t) -> {});
        Path folder = report.write(Path.of(out));
        System.out.println(report.markdown());
        log.info("evaluation: report written to {}", folder.toAbsolutePath());
        long failed =
                report.items().stream().filter(i -> !"DONE".equals(i.status())).count();
        return failed * 2 > report.items().size() ? 2 : 0;
    }

    /**
     * Fits the confidence of the strategy named by {@code strategies} (default extractive) to the
     * reports' results and writes the model where the strategy loads it from; evaluates nothing.
     */
    private int fitConfidence() {
        List<Path> reports = Arrays.stream(fitReports.split(","))
                .map(String::strip)
                .filter(p -> !p.isEmpty())
                .map(Path::of)
                .toList();
        String strategy = strategies.split(",")[0].strip();
        List<Double> before = new java.util.ArrayList<>();
        List<ConfidenceFit.Example> examples =
                ConfidenceFit.examples(reports, strategy, before, new java.util.ArrayList<>());
        ConfidenceFit.Fit fit = ConfidenceFit.fit(examples, before);
        String command = "scripts/eval.sh --lorekeeper.eval.strategies=" + strategy
                + " --lorekeeper.eval.fit-confidence=" + fitReports;
        try {
            Files.writeString(Path.of(fitOut), ConfidenceFit.json(fit, command));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        log.info(
                "confidence of {} fitted on {} answers: Brier {} (train), {} on {} held out (its confidences before: {}); written to {}",
                strategy,
                fit.trained(),
                String.format("%.4f", fit.trainBrier()),
                String.format("%.4f", fit.heldBrier()),
                fit.held(),
                fit.heldBrierBefore() == null ? "none" : String.format("%.4f", fit.heldBrierBefore()),
                fitOut);
        System.out.println(ConfidenceFit.json(fit, command));
        return 0;
    }
}
