package io.lorekeeper.cosmir;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonTypeName;

import io.lorekeeper.strategy.TraceEvent;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * What COSMIR records: how the text is read, the planner's questions, each chunk's extract, infer and
 * refine steps with the memory after them, and the manager's answer with the memory it rests on.
 */
public sealed interface CosmirEvent extends TraceEvent {

    /** A fact of the memory as the trace shows it: a gathered fact with its quote and where it was found, or an inferred one with its basis. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "CosmirFact")
    record FactView(
            String id,
            String text,
            int chunk,
            List<String> basis,
            String quote,
            Boolean located,
            UUID documentId,
            List<Integer> span) {}

    /** ⟨Q, F_g, F_i, a⟩: the open questions, the gathered and inferred facts and the answer, with their counts and token sizes. */
    @Schema(name = "CosmirMemory")
    record Snapshot(
            List<String> questions,
            List<FactView> gathered,
            List<FactView> inferred,
            String answer,
            Counts counts,
            Tokens tokens) {}

    @Schema(name = "CosmirMemoryCounts")
    record Counts(int questions, int gathered, int inferred) {}

    @Schema(name = "CosmirMemoryTokens")
    record Tokens(int gathered, int inferred, int total) {}

    /**
     * How the text will be read: in how many chunks of what size, the memory's cap, the most tokens of
     * facts one extraction may add ({@code extractLowered}: less than the cap, because the researcher's
     * output limit could not carry the cap), whether the inferred facts are held to the cap too and the
     * open questions to {@code maxQuestions} (options; absent, the paper's unbounded list), and the calls
     * that takes.
     */
    @JsonTypeName("cosmir.reading")
    @Schema(name = "CosmirReading")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Reading(
            int documents,
            int chunks,
            int chunkTokens,
            boolean chunkLowered,
            int capTokens,
            int extractTokens,
            boolean extractLowered,
            boolean capInferred,
            Integer maxQuestions,
            boolean choicesInQuery,
            int expectedCalls)
            implements CosmirEvent {}

    /**
     * The planner's open questions ({@code fallback}: the query itself, when the planner gave none), and
     * how many it asked beyond the cap ({@code cut}).
     */
    @JsonTypeName("cosmir.plan")
    @Schema(name = "CosmirPlan")
    record Plan(String thinking, List<String> questions, boolean fallback, int cut) implements CosmirEvent {}

    /**
     * The facts one chunk added (those whose quote was not found in the text, how the quotes were
     * found, repeats and facts over the limit dropped), and the gathered facts pruned to the cap.
     */
    @JsonTypeName("cosmir.extract")
    @Schema(name = "CosmirExtract")
    record Extract(
            int chunk,
            UUID documentId,
            List<Integer> span,
            List<String> added,
            List<String> unlocated,
            Map<String, Integer> quotesFound,
            int repeated,
            int overLimit,
            List<FactView> pruned,
            int gatheredTokens,
            int capTokens)
            implements CosmirEvent {}

    /**
     * The facts inferred after a chunk, those dropped for resting on no known fact or beyond the reply's
     * bound ({@code overLimit}), and the inferred facts pruned: to the cap with {@code capInferred},
     * otherwise to what the context window leaves free.
     */
    @JsonTypeName("cosmir.infer")
    @Schema(name = "CosmirInfer")
    record Infer(
            int chunk,
            List<String> added,
            int ungrounded,
            int overLimit,
            List<String> unknownIds,
            List<FactView> pruned,
            int inferredTokens)
            implements CosmirEvent {}

    /** The open questions a chunk settled and raised, how many are open, and how many were cut. */
    @JsonTypeName("cosmir.refine")
    @Schema(name = "CosmirRefine")
    record Refine(int chunk, List<String> removed, List<String> added, int open, int cut) implements CosmirEvent {}

    /** The memory after a chunk's micro-cycle. */
    @JsonTypeName("cosmir.memory")
    @Schema(name = "CosmirMemoryAfterChunk")
    record MemoryAfterChunk(
            int chunk,
            List<String> questions,
            List<FactView> gathered,
            List<FactView> inferred,
            String answer,
            Counts counts,
            Tokens tokens)
            implements CosmirEvent {

        static MemoryAfterChunk after(int chunk, Snapshot memory) {
            return new MemoryAfterChunk(
                    chunk,
                    memory.questions(),
                    memory.gathered(),
                    memory.inferred(),
                    memory.answer(),
                    memory.counts(),
                    memory.tokens());
        }
    }

    /**
     * The manager's answer, its rationale and the facts it cited (those the memory does not hold, and
     * those with no quote to cite), with the memory it answered from.
     */
    @JsonTypeName("cosmir.manage")
    @Schema(name = "CosmirManage")
    record Manage(
            String answer,
            String rationale,
            double confidence,
            List<String> citedFacts,
            List<String> unknownFacts,
            List<String> uncitableFacts,
            Snapshot memory)
            implements CosmirEvent {}
}
