package io.lorekeeper.question;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.lorekeeper.llm.LlmGateway;
import io.lorekeeper.strategy.AnswerKind;
import io.lorekeeper.strategy.Citation;
import io.lorekeeper.strategy.Strategies;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;

/** Request and response bodies of the question API. */
final class QuestionApi {

    private QuestionApi() {}

    @Schema(name = "AskQuestionRequest", description = "A question over one or more documents")
    record AskRequest(
            @ArraySchema(
                    arraySchema =
                            @Schema(
                                    description = "Documents to answer from (all READY); a follow-up in a thread"
                                            + " may leave them out to use those of the thread's latest question"),
                    minItems = 1,
                    maxItems = 50)
            List<UUID> documentIds,

            @Schema(description = "The question", requiredMode = Schema.RequiredMode.REQUIRED, minLength = 1)
            String question,

            @Schema(description = "Answer strategy; GET /v1/strategies lists them", defaultValue = Strategies.DEFAULT)
            String strategy,

            @Schema(description = "Choices of a multiple-choice question")
            List<String> choices,

            @Schema(description = "Strategy options (e.g. k, hops for extractive); unknown names are rejected")
            Map<String, Object> options,

            @Schema(
                    description = "Wait up to this many seconds for the answer before returning 202",
                    minimum = "0",
                    maximum = "60",
                    defaultValue = "0")
            Integer waitSeconds,

            @Schema(
                    description = "The thread (POST /v1/threads) this question follows up in: it is rewritten into a"
                            + " question that stands on its own from the thread's earlier turns before it is answered")
            UUID threadId) {}

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(
            name = "Question",
            description = "A question, its progress and, once DONE, its answer with verified citations")
    record QuestionView(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            UUID id,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            QuestionStatus status,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            String question,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            String strategy,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            List<UUID> documentIds,

            List<String> choices,
            Map<String, Object> options,
            @Schema(description = "The answer, once DONE") String answer,

            @Schema(
                    description =
                            "How the answer was made, e.g. `extractive` (verbatim spans, no model) or `generated`")
            String mode,

            @Schema(
                    description = "Once DONE: `span` (a short answer), `passage` (no short answer was certain enough;"
                            + " the answer is the passages to read, each cited) or `generated` (a model's text)")
            AnswerKind answerKind,

            @Schema(description = "0-based index of the chosen choice, for multiple-choice questions")
            Integer choiceIndex,

            @Schema(description = "Evidence: each quote equals the canonical text in [start, end)")
            List<Citation> citations,

            @Schema(minimum = "0", maximum = "1") Double confidence,

            @Schema(description = "DONE only: the strategy stopped on its budget")
            Boolean budgetLimited,

            @Schema(description = "FAILED only: why") String failureReason,

            @Schema(
                    description =
                            "While QUEUED: the memories of its documents it waits for (document, stage, state, why): "
                                    + "being built (on demand: started by asking), or failed with a retry scheduled (retryAt)")
            List<MemoryGap> waitingFor,

            @Schema(
                    description =
                            "What the answer was made without: optional memories the strategy ran without (document,"
                                    + " stage, state, reason), or the fallback that answered for a strategy that"
                                    + " stopped (strategy, fallback, reason)")
            List<Degradation> degraded,

            Timings timings,

            @Schema(
                    description =
                            "What the model calls made for this question cost so far, over every run of a retried "
                                    + "question; absent while QUEUED")
            QuestionUsage usage,

            @Schema(description = "The thread it was asked in")
            UUID threadId,

            @Schema(description = "A question asked in a thread, once read: what the strategy was asked instead")
            Rewrite rewrite,

            Map<String, String> links) {}

    /** How a follow-up was read in the light of its thread's earlier turns. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "QuestionRewrite")
    record Rewrite(
            @Schema(description = "The question the strategy was asked: the follow-up made to stand on its own")
            String standaloneQuestion,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "true when it was answered as asked")
            boolean skipped,

            @Schema(description = "Why it was answered as asked (no LLM, the thread's first question, a failed call)")
            String reason) {}

    /** Counted as GET /v1/usage counts them, from the same call log. */
    @Schema(description = "Model calls made for the question, as recorded in the call log")
    record QuestionUsage(
            @Schema(description = "Model calls, cache hits included; a retried call counts once")
            long calls,

            @Schema(description = "Prompt tokens the provider billed; a cache hit bills none")
            long promptTokens,

            @Schema(description = "Completion tokens the provider billed; a cache hit bills none")
            long completionTokens,

            @Schema(description = "Calls answered from the response cache (temperature-0 calls seen before)")
            long cacheHits,

            @Schema(description = "Milliseconds spent waiting on the model, summed over calls and failed attempts")
            long llmMs) {}

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Timings(Instant createdAt, Instant startedAt, Instant finishedAt, Long queuedMs, Long runMs) {}

    @Schema(description = "One step a strategy recorded")
    record TraceEvent(
            @Schema(description = "1-based position in the trace (the SSE id)")
            int seq,

            @Schema(
                    description = "The event, `family.event`: e.g. `run.status`, `rag.retrieve`, `gam.plan`",
                    requiredMode = Schema.RequiredMode.REQUIRED)
            String type,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            Instant at,
            // Stored as the event record wrote it; TraceEventSchemas publishes the union of those records.
            @Schema(
                    ref = TraceEventSchemas.PAYLOAD_REF,
                    description = "What the step saw and produced: the event record named by `type`, which it repeats")
            Object payload) {}

    @Schema(name = "QuestionTrace", description = "Every step the strategy recorded, in order")
    record TraceView(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            UUID questionId,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            QuestionStatus status,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            List<TraceEvent> events) {}

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "Strategy", description = "An answer strategy and whether it can run here")
    record StrategyView(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            String name,

            boolean needsLlm,
            boolean available,

            @Schema(description = "Why it cannot run here, when it cannot")
            String unavailableReason,

            @Schema(
                    description = "Memories (ingestion stages) a document needs before this strategy answers from it: "
                            + "a question waits while one is being built or has a retry scheduled, starts building one that is "
                            + "built on demand (unless options.buildMemories is false), and is refused (409 memory-not-ready) "
                            + "when one failed or was skipped otherwise")
            List<String> memoryStages,

            @Schema(
                    description =
                            "Memories it uses when ready and runs without otherwise (listed in the answer's degraded list)")
            List<String> optionalMemories,

            @Schema(description = "The model endpoint as probed at start, for strategies that need an LLM")
            LlmGateway.EndpointStatus llm,

            String summary) {}
}
