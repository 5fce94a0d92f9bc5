package io.lorekeeper.eval;

import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.lorekeeper.evaluator.EvalItem;
import io.lorekeeper.evaluator.Report;
import io.lorekeeper.llm.LlmGateway;
import io.lorekeeper.platform.ApiDocs;
import io.lorekeeper.platform.ApiProblem;
import io.lorekeeper.platform.LocationResponse;
import io.lorekeeper.security.CurrentTenant;
import io.lorekeeper.security.TenantQuotas;
import io.lorekeeper.strategy.Strategies;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

/**
 * Runs an evaluation inside the service, against its own HTTP API, as a background job: any replica
 * may run it, a run whose replica died is revived elsewhere, and a FAILED one can be retried.
 */
@RestController
@Tag(name = "Evaluations", description = "Run a dataset against the strategies and get the report")
class EvaluationController {

    private final EvaluationStore store;
    private final EvaluationIntake intake;
    private final CurrentTenant tenant;
    private final LlmGateway gateway;
    private final Strategies strategies;
    private final DataFolder data;
    private final TenantQuotas quotas;

    EvaluationController(
            EvaluationStore store,
            EvaluationIntake intake,
            CurrentTenant tenant,
            LlmGateway gateway,
            Strategies strategies,
            DataFolder data,
            TenantQuotas quotas) {
        this.quotas = quotas;
        this.strategies = strategies;
        this.store = store;
        this.intake = intake;
        this.tenant = tenant;
        this.gateway = gateway;
        this.data = data;
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "Evaluation", description = "An evaluation run: progress, and the report once DONE")
    record EvaluationView(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            UUID id,

            @Schema(
                    requiredMode = Schema.RequiredMode.REQUIRED,
                    allowableValues = {"QUEUED", "RUNNING", "DONE", "FAILED"})
            String status,

            String dataset,
            int done,
            int total,
            String error,
            Instant createdAt,
            Instant startedAt,
            Instant finishedAt,
            // Typed Object, not JsonNode: springdoc would list JsonNode's getters, in no stable order.
            @Schema(
                    description = "The report (as report.json of the command line) once DONE",
                    implementation = Report.class)
            Object report) {}

    @PostMapping("/v1/evaluations")
    @Operation(
            operationId = "startEvaluation",
            summary = "Start an evaluation",
            description = "202 + Location; poll GET /v1/evaluations/{id} for progress and the report.")
    @LocationResponse(code = "202", description = "Queued as a job; poll Location")
    @ApiResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    ResponseEntity<EvaluationView> start(@RequestBody StartEvaluation request) {
        if (request.judged() && !gateway.isConfigured()) {
            throw ApiProblem.invalid(
                    "judge",
                    "the LLM judge needs an LLM: configure lorekeeper.llm.base-url or an API key, or leave judge off");
        }
        List<EvalItem> items = data.items(request);
        request.checkRun(strategies);
        quotas.requireTokens();
        int total = items.size() * request.strategies().size();
        UUID id = intake.start(tenant.id(), request, total);
        return ResponseEntity.accepted()
                .location(URI.create("/v1/evaluations/" + id))
                .body(view(load(id)));
    }

    @GetMapping("/v1/evaluations/{id}")
    @Operation(
            operationId = "getEvaluation",
            description =
                    "Its progress while it runs; when DONE, its report (scores, evidence recall, model calls and tokens per strategy). A FAILED evaluation says why and can be resumed with POST /v1/evaluations/{id}/retry.",
            summary = "Progress of an evaluation, and its report when DONE")
    @ApiResponse(responseCode = "200", description = "The evaluation")
    @ApiResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    EvaluationView get(@PathVariable UUID id) {
        return view(load(id));
    }

    @PostMapping("/v1/evaluations/{id}/retry")
    @Operation(
            operationId = "retryEvaluation",
            summary = "Run a FAILED evaluation again",
            description =
                    "Resumes it: questions that finished before the failure keep their results and are not asked again.")
    @LocationResponse(code = "202", description = "Queued again; poll Location")
    @ApiResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @ApiResponse(responseCode = "409", ref = ApiDocs.CONFLICT)
    ResponseEntity<EvaluationView> retry(@PathVariable UUID id) {
        intake.retry(tenant.id(), id);
        return ResponseEntity.accepted()
                .location(URI.create("/v1/evaluations/" + id))
                .body(view(load(id)));
    }

    private EvaluationStore.Stored load(UUID id) {
        return store.find(tenant.id(), id).orElseThrow(() -> ApiProblem.notFound("Evaluation", id));
    }

    private static EvaluationView view(EvaluationStore.Stored s) {
        return new EvaluationView(
                s.id(),
                s.status(),
                s.dataset(),
                s.done(),
                s.total(),
                s.error(),
                s.createdAt(),
                s.startedAt(),
                s.finishedAt(),
                s.report());
    }
}
