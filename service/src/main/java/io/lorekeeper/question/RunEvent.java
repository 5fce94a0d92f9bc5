package io.lorekeeper.question;

import java.util.List;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonTypeName;

import io.lorekeeper.strategy.TraceEvent;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * What the question run itself records around its strategy's events: its status changes, what it
 * waits for, what it runs without, and the citation check of the answer.
 */
public sealed interface RunEvent extends TraceEvent {

    /**
     * The question changed status: {@code RUNNING} when a run starts (naming the strategy and the
     * worker), then {@code DONE} (with the run's time and model spend) or {@code FAILED} (with the
     * reason). A finished status is the trace's last event: an event stream ends there.
     */
    @JsonTypeName("run.status")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "RunStatus")
    record Status(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            QuestionStatus status,

            String strategy,
            String worker,
            String reason,
            Long ms,
            Integer llmCalls,
            Long llmTokens,

            @Schema(
                    description = "the OpenTelemetry trace id of this run (RUNNING only, where traces are"
                            + " recorded): its spans in the tracing backend, its lines in the logs")
            String traceId)
            implements RunEvent {

        static Status running(String strategy, String worker, String traceId) {
            return new Status(QuestionStatus.RUNNING, strategy, worker, null, null, null, null, traceId);
        }

        static Status done(long ms, int llmCalls, long llmTokens) {
            return new Status(QuestionStatus.DONE, null, null, null, ms, llmCalls, llmTokens, null);
        }

        static Status failed(String reason) {
            return new Status(QuestionStatus.FAILED, null, null, reason, null, null, null, null);
        }
    }

    /**
     * The question stays QUEUED until these memories of its documents are built: recorded when what
     * it waits for changes, not on every look.
     */
    @JsonTypeName("run.waiting")
    @Schema(name = "RunWaiting")
    record Waiting(
            @JsonProperty("for") @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            List<MemoryGap> waitingFor) implements RunEvent {}

    /** The strategy runs without these optional memories, which are not ready; the answer's degraded list says so. */
    @JsonTypeName("run.degraded")
    @Schema(name = "RunDegraded")
    record Degraded(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            List<MemoryGap> missing) implements RunEvent {}

    /**
     * The strategy stopped without an answer (its budget, its wall time, an unusable reply), or {@code auto}
     * found no model to route to, so the model-free {@code fallback} strategy answers instead; the answer is
     * marked degraded.
     */
    @JsonTypeName("run.fallback")
    @Schema(name = "RunFallback")
    record Fallback(String strategy, String fallback, String reason) implements RunEvent {}

    /**
     * The citation check: how many of the strategy's citations quote their document exactly (kept)
     * and how many do not (dropped, the first few quotes shown), so a reader sees invented quotes.
     */
    @JsonTypeName("run.citations")
    @Schema(name = "RunCitations")
    record Citations(int kept, int dropped, List<String> droppedQuotes) implements RunEvent {}

    /** Rate-limited for longer than is worth waiting: the question is queued again and runs after a while. */
    @JsonTypeName("run.requeued")
    @Schema(name = "RunRequeued")
    record Requeued(String reason, long afterSeconds) implements RunEvent {}

    /**
     * A run of this question that stopped before it finished (its worker stopped, or it was re-queued)
     * left events {@code earlierRunFrom}..{@code earlierRunTo} above; this run's follow.
     */
    @JsonTypeName("run.restarted")
    @Schema(name = "RunRestarted")
    record Restarted(int earlierRunFrom, int earlierRunTo, String worker, String reason) implements RunEvent {}

    /**
     * The question started building memories its strategy needs that are built only on demand; it
     * waits for them like for any memory in progress.
     */
    @JsonTypeName("run.memory-build")
    @Schema(name = "RunMemoryBuild")
    record MemoryBuild(List<Memory> memories, String why) implements RunEvent {}

    /** One memory of one document. */
    @Schema(name = "RunMemory")
    record Memory(UUID documentId, String stage) {}
}
