package io.lorekeeper.question;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.lorekeeper.llm.LlmGateway;
import io.lorekeeper.reasoning.Citation;
import io.swagger.v3.oas.annotations.media.Schema;

/** Request and response bodies of the question API. */
final class QuestionApi {

    private QuestionApi() {
    }

    record AskRequest(
            @Schema(description = "Documents to answer from (all READY, at most 50)") List<UUID> documentIds,
            String question,
            @Schema(description = "Answer strategy; default `extractive`. GET /v1/strategies lists them") String strategy,
            @Schema(description = "Choices of a multiple-choice question") List<String> choices,
            @Schema(description = "Strategy options (e.g. k, hops for extractive); unknown names are rejected") Map<String, Object> options,
            @Schema(description = "Wait up to this many seconds (0 to 60) for the answer before returning 202") Integer waitSeconds) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record QuestionView(UUID id, QuestionStatus status, String question, String strategy, List<UUID> documentIds,
            List<String> choices, Map<String, Object> options, String answer, String mode, Integer choiceIndex,
            List<Citation> citations, Double confidence, Boolean budgetLimited, String failureReason,
            @Schema(description = "While QUEUED: the memories of its documents it waits for (document, stage, state)") Object waitingFor,
            @Schema(description = "Optional memories the strategy ran without (document, stage, state, reason)") Object degraded,
            Timings timings,
            @Schema(description = "What the model calls made for this question cost so far, over every run of a retried "
                    + "question; absent while QUEUED") QuestionUsage usage,
            Map<String, String> links) {
    }

    /** Counted as GET /v1/usage counts them, from the same call log. */
    @Schema(description = "Model calls made for the question, as recorded in the call log")
    record QuestionUsage(
            @Schema(description = "Model calls, cache hits included; a retried call counts once") long calls,
            @Schema(description = "Prompt tokens the provider billed; a cache hit bills none") long promptTokens,
            @Schema(description = "Completion tokens the provider billed; a cache hit bills none") long completionTokens,
            @Schema(description = "Calls answered from the response cache (temperature-0 calls seen before)") long cacheHits,
            @Schema(description = "Milliseconds spent waiting on the model, summed over calls and failed attempts") long llmMs) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Timings(Instant createdAt, Instant startedAt, Instant finishedAt, Long queuedMs, Long runMs) {
    }

    record TraceEvent(int seq, String type, Instant at, Object payload) {
    }

    record TraceView(UUID questionId, QuestionStatus status, List<TraceEvent> events) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record StrategyView(String name, boolean needsLlm, boolean available,
            @Schema(description = "Why it cannot run here, when it cannot") String unavailableReason,
            @Schema(description = "Memories (ingestion stages) a document needs before this strategy answers from it: "
                    + "a question waits while one is being built, and is refused (409 memory-not-ready) when one failed or was skipped")
            List<String> memoryStages,
            @Schema(description = "Memories it uses when ready and runs without otherwise (listed in the answer's degraded list)")
            List<String> optionalMemories,
            @Schema(description = "The model endpoint as probed at start, for strategies that need an LLM") LlmGateway.EndpointStatus llm,
            String summary) {
    }
}
