package io.lorekeeper.question;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import io.lorekeeper.llm.LlmGateway;
import io.lorekeeper.llm.LlmUsage;
import io.lorekeeper.platform.ApiDocs;
import io.lorekeeper.platform.ApiProblem;
import io.lorekeeper.platform.LocationResponse;
import io.lorekeeper.question.QuestionApi.AskRequest;
import io.lorekeeper.question.QuestionApi.QuestionView;
import io.lorekeeper.question.QuestionApi.StrategyView;
import io.lorekeeper.question.QuestionApi.TraceView;
import io.lorekeeper.question.QuestionStore.StoredQuestion;
import io.lorekeeper.security.CurrentTenant;
import io.lorekeeper.strategy.Strategies;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

@RestController
@Tag(
        name = "Questions",
        description = "Ask questions over documents; follow their progress; read answers, citations and traces")
class QuestionController {

    private final QuestionIntake intake;
    private final QuestionStore store;
    private final QuestionEvents events;
    private final Strategies strategies;
    private final CurrentTenant tenant;
    private final QuestionSettings settings;
    private final LlmUsage usage;
    private final LlmGateway gateway;

    QuestionController(
            QuestionIntake intake,
            QuestionStore store,
            QuestionEvents events,
            Strategies strategies,
            CurrentTenant tenant,
            QuestionSettings settings,
            LlmUsage usage,
            LlmGateway gateway) {
        this.gateway = gateway;
        this.intake = intake;
        this.store = store;
        this.events = events;
        this.strategies = strategies;
        this.tenant = tenant;
        this.settings = settings;
        this.usage = usage;
    }

    @PostMapping("/v1/questions")
    @Operation(
            operationId = "askQuestion",
            summary = "Ask a question",
            description =
                    "Returns 202 with a Location to poll; with waitSeconds, returns 200 with the answer if it is ready in time.",
            requestBody =
                    @io.swagger.v3.oas.annotations.parameters.RequestBody(
                            required = true,
                            content =
                                    @Content(
                                            mediaType = ApiDocs.JSON,
                                            schema = @Schema(implementation = AskRequest.class),
                                            examples =
                                                    @ExampleObject(
                                                            name = "extractive",
                                                            summary = "Ask and wait up to 10 s",
                                                            value = """
                                    {"documentIds": ["0b6f7f8e-8d0c-4c39-9d1e-2f4a1c9e7b11"], \
                                    "question": "When did the keeper light the lamp?", "strategy": "extractive", "waitSeconds": 10}"""))))
    @LocationResponse(code = "202", description = "Queued (or still running after waitSeconds); poll Location")
    @LocationResponse(code = "200", description = "Finished within waitSeconds")
    @ApiResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @ApiResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @ApiResponse(responseCode = "409", ref = ApiDocs.CONFLICT)
    ResponseEntity<QuestionView> ask(@RequestBody AskRequest request) throws InterruptedException {
        int wait = request == null || request.waitSeconds() == null ? 0 : request.waitSeconds();
        if (wait < 0 || wait > settings.maxWait().toSeconds()) {
            throw ApiProblem.invalid(
                    "waitSeconds",
                    "waitSeconds must be between 0 and " + settings.maxWait().toSeconds());
        }
        UUID id = intake.ask(request);
        StoredQuestion question = store.awaitFinished(tenant.id(), id, Duration.ofSeconds(wait))
                .orElseThrow(() -> ApiProblem.notFound("Question", id));
        URI location = URI.create("/v1/questions/" + id);
        return question.status().isFinished()
                ? ResponseEntity.ok().location(location).body(view(question))
                : ResponseEntity.accepted().location(location).body(view(question));
    }

    @GetMapping("/v1/questions/{id}")
    @Operation(
            operationId = "getQuestion",
            description =
                    "While QUEUED, what it waits for; once DONE, the answer with citations verified against the canonical text, its confidence, what it ran without (`degraded`), whether the budget stopped it, and what its model calls cost (`usage`). A question asked in a thread shows how it was rewritten (`rewrite`).",
            summary = "Status, answer, verified citations, confidence, timings and model usage")
    @ApiResponse(responseCode = "200", description = "The question")
    @ApiResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    QuestionView get(@PathVariable UUID id) {
        return view(load(id));
    }

    @GetMapping("/v1/questions/{id}/trace")
    @Operation(
            operationId = "getQuestionTrace",
            description =
                    "The stored trace events so far, each `{seq, type, at, payload}` with a payload typed by `type` (the `TraceEventPayload` union). GET /v1/questions/{id}/events streams the same events while the question runs.",
            summary = "Every step the strategy recorded, in order")
    @ApiResponse(responseCode = "200", description = "The trace so far")
    @ApiResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    TraceView trace(@PathVariable UUID id) {
        StoredQuestion question = load(id);
        return new TraceView(id, question.status(), store.trace(id, 0));
    }

    @GetMapping(path = "/v1/questions/{id}/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    @Operation(
            operationId = "streamQuestionEvents",
            summary = "The trace as server-sent events while the question runs",
            description = """
                    A `text/event-stream` (server-sent events). Each trace event is one frame: `id:` its sequence number, \
                    `event:` its type (e.g. `run.status`, `rag.retrieve`) and one `data:` line holding the TraceEvent as JSON, \
                    whose `payload` is the event record of that type. \
                    Once the question has finished, a last frame `event: end` with `data: {"status": "DONE"}` (or FAILED) \
                    is sent and the stream closes, so reading it to the end also works for clients without SSE support. \
                    Send `Last-Event-ID` to resume after the event with that id.""")
    @ApiResponse(
            responseCode = "200",
            description = "The event stream; ends after the `end` frame",
            content =
                    @Content(
                            mediaType = MediaType.TEXT_EVENT_STREAM_VALUE,
                            schema =
                                    @Schema(
                                            type = "string",
                                            format = "binary",
                                            description =
                                                    "UTF-8 SSE frames, a byte stream that generated clients read to its end"),
                            examples = @ExampleObject(name = "frames", value = """
                    id: 1
                    event: run.status
                    data: {"seq":1,"type":"run.status","at":"2026-11-23T18:00:00Z","payload":{"type":"run.status","status":"RUNNING","strategy":"rag","worker":"w1"}}

                    event: end
                    data: {"status":"DONE"}
                    """)))
    @ApiResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    SseEmitter events(
            @PathVariable UUID id,
            @Parameter(description = "Resume after the event with this id")
                    @RequestHeader(name = "Last-Event-ID", required = false)
                    String lastEventId) {
        load(id);
        int after = 0;
        if (lastEventId != null && lastEventId.matches("\\d{1,9}")) {
            after = Integer.parseInt(lastEventId);
        }
        return events.stream(id, after, settings.eventsTimeout());
    }

    @PostMapping("/v1/questions/{id}/retry")
    @Operation(
            operationId = "retryQuestion",
            description =
                    "Only a FAILED question can be retried (another status is a 409): it is queued again with the same documents, strategy and options, and its trace keeps the earlier run's events.",
            summary = "Run a FAILED question again")
    @LocationResponse(code = "202", description = "Queued again; poll Location")
    @ApiResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @ApiResponse(responseCode = "409", ref = ApiDocs.CONFLICT)
    ResponseEntity<QuestionView> retry(@PathVariable UUID id) {
        intake.retry(id);
        return ResponseEntity.accepted()
                .location(URI.create("/v1/questions/" + id))
                .body(view(load(id)));
    }

    @GetMapping("/v1/strategies")
    @Operation(
            operationId = "listStrategies",
            description =
                    "For each strategy: whether it needs an LLM and can run now (and why not), the memories a document needs before it answers (`memoryStages`) and those it uses when present, and the model endpoint as probed.",
            summary = "The answer strategies and whether each can run with the current configuration")
    List<StrategyView> strategies() {
        LlmGateway.EndpointStatus llm = gateway.endpointStatus();
        return strategies.all().stream()
                .map(s -> new StrategyView(
                        s.name(),
                        s.requirements().needsLlm(),
                        strategies.isAvailable(s),
                        strategies.isAvailable(s) ? null : llm.detail(),
                        List.copyOf(new java.util.TreeSet<>(s.requirements().memoryStages())),
                        List.copyOf(new java.util.TreeSet<>(s.requirements().optionalMemories())),
                        s.requirements().needsLlm() ? llm : null,
                        s.requirements().summary()))
                .toList();
    }

    private StoredQuestion load(UUID id) {
        return store.find(tenant.id(), id).orElseThrow(() -> ApiProblem.notFound("Question", id));
    }

    private QuestionView view(StoredQuestion q) {
        return QuestionViews.view(q, usage);
    }
}
