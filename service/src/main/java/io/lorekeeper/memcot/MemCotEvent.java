package io.lorekeeper.memcot;

import java.util.List;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonTypeName;

import io.lorekeeper.strategy.TraceEvent;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * What MemCoT's loop records at each step (the queries, zoom-in, zoom-out, the judge, the memory
 * after it, the next queries), then what the responder was shown and its answer.
 */
public sealed interface MemCotEvent extends TraceEvent {

    /** A unit of evidence as the trace names it: its id, where it lies, and the conversation turns it holds. */
    @Schema(name = "MemCotUnit")
    record UnitRef(String id, UUID documentId, int start, int end, List<String> turnIds) {}

    /** The queries a step searches with: the question in the first step, then the judge's. */
    @JsonTypeName("memcot.queries")
    @Schema(name = "MemCotQueries")
    record Queries(int step, List<String> queries) implements MemCotEvent {}

    /**
     * The focused reader over the step's new hits: the candidates, the ids it kept (and those it named
     * that are no candidate), what it says is still missing. {@code skipped} when there was nothing new
     * to read, {@code failed} when its reply was unusable (it then keeps nothing).
     */
    @JsonTypeName("memcot.zoom-in")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "MemCotZoomIn")
    record ZoomIn(
            int step,
            List<UnitRef> candidates,
            String skipped,
            List<String> kept,
            List<String> unknownIds,
            String missing,
            String thinking,
            String failed)
            implements MemCotEvent {

        static ZoomIn skipped(int step, List<UnitRef> candidates, String why) {
            return new ZoomIn(step, candidates, why, null, null, null, null, null);
        }
    }

    /**
     * The wide reader over the windows around the kept units (each window a run of unit ids): the ids
     * it added. {@code skipped} when the windows held nothing new, {@code failed} when its reply was unusable.
     */
    @JsonTypeName("memcot.zoom-out")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "MemCotZoomOut")
    record ZoomOut(
            int step,
            List<List<String>> windows,
            String skipped,
            List<String> kept,
            List<String> unknownIds,
            String missing,
            String thinking,
            String failed)
            implements MemCotEvent {

        static ZoomOut skipped(int step, List<List<String>> windows, String why) {
            return new ZoomOut(step, windows, why, null, null, null, null, null);
        }
    }

    /**
     * The judge's verdict: whether the memory can answer, the action (BREAK, DELETE, ANSWER or none),
     * the useful ids, the new queries and the query numbers it settled; or, with {@code failed} alone,
     * that its reply was unusable and the loop ends on the readers' picks.
     */
    @JsonTypeName("memcot.judge")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "MemCotJudge")
    record Judge(
            int step,
            String failed,
            Boolean canAnswer,
            String action,
            List<String> usefulIds,
            List<String> unknownIds,
            List<String> newQueries,
            List<Integer> resolved,
            String thinking)
            implements MemCotEvent {

        static Judge failed(int step, String reason) {
            return new Judge(step, reason, null, null, null, null, null, null, null);
        }
    }

    /**
     * The short-term memory after the step: the units it added, whether the step failed (added nothing
     * to an open question), the whole semantic memory and the recent failed searches.
     */
    @JsonTypeName("memcot.memory-update")
    @Schema(name = "MemCotMemoryUpdate")
    record MemoryUpdate(
            int step,
            List<String> added,
            boolean failed,
            List<UnitRef> semantic,
            List<ShortTermMemory.Failure> failedQueue)
            implements MemCotEvent {}

    /**
     * The next step's queries after the judge's action, with the proposed queries dropped as repeats of
     * failed ones, the current ones settled by DELETE (and DELETE numbers naming none), and whether the
     * queue fell back to the question.
     */
    @JsonTypeName("memcot.queries-next")
    @Schema(name = "MemCotQueriesNext")
    record QueriesNext(
            int step,
            String action,
            List<String> next,
            List<String> droppedRepeats,
            List<String> settled,
            List<Integer> unknownSettled,
            boolean fellBackToQuestion)
            implements MemCotEvent {}

    /**
     * What the responder answers from: the units (the memory; the question's best passages when
     * {@code retrieved}; every unit of the documents when {@code wholeDocument}, the authors' fallback
     * when the judge never found the memory enough), their size, why the loop stopped after how many
     * steps, and why the whole-document fallback was not taken when it was due ({@code wholeDocumentRefused}).
     */
    @JsonTypeName("memcot.context")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "MemCotContext")
    record Context(
            int steps,
            String stop,
            List<UnitRef> units,
            int memoryTokens,
            boolean retrieved,
            boolean wholeDocument,
            String wholeDocumentRefused)
            implements MemCotEvent {}

    /** One piece of evidence the responder named: whether the unit is one it was shown, and whether its quote was found. */
    @Schema(name = "MemCotCheckedEvidence")
    record Checked(String id, boolean unitKnown, boolean quoteFound) {}

    /**
     * The answer: its confidence (capped when the judge never found the memory enough), the evidence
     * checked; or, with {@code fromMemory}, the memory's first unit verbatim because the budget refused
     * the responder ({@code reason}).
     */
    @JsonTypeName("memcot.answer")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "MemCotAnswer")
    record Answer(
            String answer,
            double confidence,
            Boolean confidenceCapped,
            List<Checked> evidence,
            Boolean fromMemory,
            String reason)
            implements MemCotEvent {}
}
