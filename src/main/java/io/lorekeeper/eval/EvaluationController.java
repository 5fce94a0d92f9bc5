package io.lorekeeper.eval;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.env.Environment;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.lorekeeper.platform.ApiProblem;
import io.lorekeeper.security.CurrentTenant;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs an evaluation inside this service, against its own HTTP API, in the background. A run lives
 * in this process: if the replica stops, the run stays RUNNING and must be started again.
 */
@RestController
@Tag(name = "Evaluations", description = "Run a dataset against the strategies and get the report")
class EvaluationController {

    private static final Logger log = LoggerFactory.getLogger(EvaluationController.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final EvaluationStore store;
    private final CurrentTenant tenant;
    private final Environment environment;
    private final Path dataDir;

    EvaluationController(EvaluationStore store, CurrentTenant tenant, Environment environment,
            @Value("${lorekeeper.eval.data-dir:data}") String dataDir) {
        this.store = store;
        this.tenant = tenant;
        this.environment = environment;
        this.dataDir = Path.of(dataDir).toAbsolutePath().normalize();
    }

    record StartEvaluation(
            @Schema(description = "locomo, hotpotqa, loogle, comorag or jsonl") String dataset,
            @Schema(description = "File or folder relative to the server's lorekeeper.eval.data-dir") String path,
            @Schema(description = "Inline items in the generic JSONL format (dataset jsonl), instead of path") List<Map<String, Object>> items,
            @Schema(description = "Strategies to compare, or search:vector|keyword|hybrid retrieval probes") List<String> strategies,
            @Schema(description = "Per strategy, the options sent with each question, e.g. {\"rag\": {\"k\": 10}}") Map<String, Map<String, Object>> options,
            @Schema(description = "At most this many questions (0 or absent: all)") Integer limit,
            @Schema(description = "Questions in flight at once (default 4)") Integer concurrency,
            @Schema(description = "Chunks per search probe (default 10)") Integer searchK) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record EvaluationView(UUID id, String status, String dataset, int done, int total, String error, Instant createdAt,
            Instant finishedAt,
            // Typed Object, not JsonNode: springdoc would list JsonNode's getters, in no stable order.
            @Schema(description = "The report (as report.json of the command line) once DONE") Object report) {
    }

    @PostMapping("/v1/evaluations")
    @Operation(summary = "Start an evaluation", description = "202 + Location; poll GET /v1/evaluations/{id} for progress and the report.")
    ResponseEntity<EvaluationView> start(@RequestBody StartEvaluation request) {
        List<EvalItem> items = items(request);
        if (request.strategies() == null || request.strategies().isEmpty()) {
            throw ApiProblem.invalid("strategies", "name at least one strategy");
        }
        EvalRunner.Request run = new EvalRunner.Request(request.dataset(), items, List.copyOf(request.strategies()), request.options(),
                request.concurrency() == null ? 4 : Math.min(32, request.concurrency()),
                request.searchK() == null ? 10 : request.searchK(), null, null);
        UUID id = UUID.randomUUID();
        UUID tenantId = tenant.id();
        Map<String, Object> stored = new LinkedHashMap<>();
        stored.put("dataset", request.dataset());
        stored.put("path", request.path());
        stored.put("inlineItems", request.items() == null ? 0 : request.items().size());
        stored.put("strategies", request.strategies());
        stored.put("options", run.options());
        stored.put("limit", request.limit());
        stored.put("concurrency", run.concurrency());
        stored.put("searchK", run.searchK());
        store.create(id, tenantId, request.dataset(), stored);
        String base = "http://localhost:" + environment.getRequiredProperty("local.server.port");
        Thread.ofVirtual().name("evaluation-" + id).start(() -> {
            try {
                Report report = new EvalRunner(new ServiceClient(base, null)).run(run, (done, total) -> store.progress(id, done, total));
                store.finish(id, report);
            } catch (Exception e) {
                log.warn("evaluation {} failed", id, e);
                store.fail(id, String.valueOf(e.getMessage()));
            }
        });
        return ResponseEntity.accepted().location(URI.create("/v1/evaluations/" + id))
                .body(new EvaluationView(id, "QUEUED", request.dataset(), 0, items.size() * request.strategies().size(), null,
                        Instant.now(), null, null));
    }

    @GetMapping("/v1/evaluations/{id}")
    @Operation(summary = "Progress of an evaluation, and its report when DONE")
    EvaluationView get(@PathVariable UUID id) {
        EvaluationStore.Stored s = store.find(tenant.id(), id).orElseThrow(() -> ApiProblem.notFound("Evaluation", id));
        return new EvaluationView(s.id(), s.status(), s.dataset(), s.done(), s.total(), s.error(), s.createdAt(), s.finishedAt(), s.report());
    }

    private List<EvalItem> items(StartEvaluation request) {
        if (request.dataset() == null || !Datasets.NAMES.contains(request.dataset())) {
            throw ApiProblem.invalid("dataset", "dataset must be one of " + Datasets.NAMES);
        }
        int limit = request.limit() == null ? 0 : request.limit();
        if (limit < 0) {
            throw ApiProblem.invalid("limit", "limit must be >= 0");
        }
        if (request.items() != null && !request.items().isEmpty()) {
            if (!request.dataset().equals("jsonl")) {
                throw ApiProblem.invalid("items", "inline items are in the generic format: use dataset jsonl");
            }
            List<JsonNode> records = new ArrayList<>();
            request.items().forEach(i -> records.add(JSON.valueToTree(i)));
            try {
                List<EvalItem> items = Datasets.jsonl(records);
                return limit > 0 && items.size() > limit ? items.subList(0, limit) : items;
            } catch (IllegalArgumentException e) {
                throw ApiProblem.invalid("items", e.getMessage());
            }
        }
        if (request.path() == null || request.path().isBlank()) {
            throw ApiProblem.invalid("path", "give a path (relative to the data folder) or inline items");
        }
        Path path = dataDir.resolve(request.path()).normalize();
        if (!path.startsWith(dataDir) || !Files.exists(path)) {
            throw ApiProblem.invalid("path", "no such file or folder in the data folder: " + request.path());
        }
        try {
            return Datasets.load(request.dataset(), path, limit);
        } catch (RuntimeException e) {
            throw ApiProblem.invalid("path", "cannot load " + request.path() + " as " + request.dataset() + ": " + e.getMessage());
        }
    }
}
