package io.lorekeeper.chainofagents;

import java.util.List;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonTypeName;

import io.lorekeeper.strategy.TraceEvent;
import io.swagger.v3.oas.annotations.media.Schema;

/** What Chain of Agents records: how the text is read, each worker's summary, and the manager's answer. */
public sealed interface ChainOfAgentsEvent extends TraceEvent {

    /**
     * How the text will be read: in how many chunks of what size, the summary's cap and the length the
     * workers are asked for with their reply limit ({@code summaryLowered}: why that length is below the
     * cap, absent when it is not), whether they are told not to answer yet, and the calls that takes.
     */
    @JsonTypeName("chain-of-agents.reading")
    @Schema(name = "ChainOfAgentsReading")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Reading(
            int documents,
            int chunks,
            int chunkTokens,
            boolean chunkLowered,
            int summaryTokens,
            int requestedSummaryTokens,
            int workerOutputTokens,
            String summaryLowered,
            boolean holdAnswer,
            boolean choicesInQuery,
            int expectedCalls)
            implements ChainOfAgentsEvent {}

    /** The summary a worker wrote over its chunk ({@code span} in its document), and the tokens cut to keep it to the cap. */
    @JsonTypeName("chain-of-agents.worker")
    @Schema(name = "ChainOfAgentsWorker")
    record Worker(int chunk, UUID documentId, List<Integer> span, int summaryTokens, int cutTokens, String summary)
            implements ChainOfAgentsEvent {}

    /** The manager's answer from the last summary, and how many of its quotes were found in the documents (and which were not). */
    @JsonTypeName("chain-of-agents.manage")
    @Schema(name = "ChainOfAgentsManage")
    record Manage(String answer, double confidence, int quotesLocated, List<String> quotesUnlocated)
            implements ChainOfAgentsEvent {}
}
