package io.lorekeeper.gam;

import java.util.List;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonTypeName;

import io.lorekeeper.strategy.TraceEvent;
import io.swagger.v3.oas.annotations.media.Schema;

/** What GAM's researcher records: each round's memos, plan, searches, integration and reflection, then the answer. */
public sealed interface GamEvent extends TraceEvent {

    /**
     * The memos the planner was shown this round: all of them when they fit its context, else those
     * closest to the request. A reader sees how much of the memory the plan could rest on.
     */
    @JsonTypeName("gam.memos")
    @Schema(name = "GamMemos")
    record Memos(int round, int shown, int total, int tokens, int totalTokens) implements GamEvent {}

    /**
     * The planner's plan for the round's request (its reasoning, information needs and searches), and
     * the page references it asked for that name no page. Shows what the round set out to find.
     */
    @JsonTypeName("gam.plan")
    @Schema(name = "GamPlan")
    record Plan(int round, String request, ResearchPlan plan, List<String> rejectedPages) implements GamEvent {}

    /** Every search the plan ran (tool, query) and the pages each found: where the round's pages came from. */
    @JsonTypeName("gam.search")
    @Schema(name = "GamSearch")
    record Search(int round, List<Found> searches) implements GamEvent {

        /** One search, and the pages it found as {@code D1-P3} labels. */
        @Schema(name = "GamSearchFound")
        public record Found(String tool, String query, List<String> pages) {}
    }

    /**
     * The notes rewritten with the round's pages: which pages were read (again), which were left out
     * for room, and the notes after; or, with {@code skipped}, why there was nothing to integrate.
     */
    @JsonTypeName("gam.integrate")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "GamIntegrate")
    record Integrate(
            int round,
            String skipped,
            List<String> pagesRead,
            List<String> pagesReadAgain,
            List<String> pagesLeftOut,
            Integer pageTokens,
            Integration integration)
            implements GamEvent {

        static Integrate skipped(int round, String why) {
            return new Integrate(round, why, null, null, null, null, null);
        }
    }

    /** Whether the notes answer the round's request, and if not what is missing and the follow-ups for the next round. */
    @JsonTypeName("gam.reflect")
    @Schema(name = "GamReflect")
    record Reflect(int round, boolean enough, String missing, List<String> followUps, String thinking)
            implements GamEvent {}

    /**
     * What the answerer was shown: the notes ({@code output} integration) or the notes with source pages
     * or snippets, their sizes, and the spans of the text they stand for.
     */
    @JsonTypeName("gam.context")
    @Schema(name = "GamContext")
    record Context(String output, int integrationTokens, int excerptTokens, long pagesBehindNotes, List<TextSpan> spans)
            implements GamEvent {}

    /** A stretch of a document's text. */
    @Schema(name = "GamTextSpan")
    record TextSpan(UUID documentId, int start, int end) {}

    /**
     * The answer and its confidence; {@code abstained} when the answerer declined (it then cites
     * nothing), {@code fromNotes} when the budget refused the answerer and the notes are the answer.
     */
    @JsonTypeName("gam.answer")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "GamAnswer")
    record Answer(String answer, double confidence, Boolean abstained, Boolean fromNotes) implements GamEvent {}
}
