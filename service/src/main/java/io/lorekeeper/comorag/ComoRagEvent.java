package io.lorekeeper.comorag;

import java.util.List;
import java.util.Set;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonTypeName;

import io.lorekeeper.strategy.TraceEvent;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * What ComoRAG's question loop records, step by step ({@link MetacognitiveLoop}): the index it reads,
 * each probe, each layer's retrieval, the memory pool's encode, fuse and update, each try and the
 * answer. Budget stops and unusable replies are the shared {@link io.lorekeeper.strategy.StepEvent}s.
 */
public sealed interface ComoRagEvent extends TraceEvent {

    /**
     * The index a question reads, once per document, with the options it runs under: a reader sees
     * how large each layer is (a layer with no summaries retrieves nothing) before any step.
     *
     * @param graph  the entity graph's size, where the document has one
     * @param budget each layer's and the fused history's share of the context, in tokens
     */
    @JsonTypeName("comorag.index")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "ComoRagIndex")
    record Index(
            UUID documentId,
            int units,
            int unitsWithTriples,
            int triples,
            int semanticSummaries,
            int semanticLevels,
            int episodicSummaries,
            int episodicLevels,
            GraphSize graph,
            String veridical,
            String tryAnswer,
            Set<String> layers,
            boolean memory,
            boolean probing,
            Shares budget)
            implements ComoRagEvent {

        static Index of(UUID documentId, ComoRagStore.Stats stats, GraphSize graph, ComoRagOptions options) {
            return new Index(
                    documentId,
                    stats.units(),
                    stats.unitsWithTriples(),
                    stats.triples(),
                    stats.semantic(),
                    stats.semanticLevels(),
                    stats.episodic(),
                    stats.episodicLevels(),
                    graph,
                    options.veridical(),
                    options.tryAnswer(),
                    options.layers(),
                    options.memory(),
                    options.probing(),
                    new Shares(
                            options.tokensFor(ComoRagOptions.VERIDICAL),
                            options.tokensFor(ComoRagOptions.SEMANTIC),
                            options.tokensFor(ComoRagOptions.EPISODIC),
                            options.historyTokens()));
        }
    }

    /** The entity–fact–passage graph of a document: its nodes and edges by kind. */
    @Schema(name = "ComoRagGraphSize")
    record GraphSize(int entities, int units, int factEdges, int passageEdges, int synonymEdges) {}

    /** Tokens per layer of the answerer's context, and of the fused history. */
    @Schema(name = "ComoRagShares")
    record Shares(int veridical, int semantic, int episodic, int history) {}

    /**
     * Self-Probe's new probes for a cycle, and the ones it dropped with why (blank, a repeat, over the
     * limit): a reader follows what the loop looked for next and why the loop may stop.
     *
     * @param from what the probe was written from (the pool's cues, the last step's cues, the last try's evidence)
     */
    @JsonTypeName("comorag.probe")
    @Schema(name = "ComoRagProbe")
    record Probe(int cycle, List<String> probes, List<DroppedProbe> dropped, String from, List<String> previousProbes)
            implements ComoRagEvent {}

    @Schema(name = "ComoRagDroppedProbe")
    record DroppedProbe(String probe, String reason) {}

    /**
     * What one layer returned for one probe: the items within the layer's share of the context (where
     * they are, not their text) and how many seen items were left out; for the veridical layer, the facts
     * matched and how the units were ranked.
     */
    @JsonTypeName("comorag.retrieve")
    @Schema(name = "ComoRagRetrieve")
    record Retrieve(
            int cycle,
            String probe,
            String layer,
            List<Item> items,
            int tokens,
            int budget,
            int excluded,
            @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> matchedFacts,
            @JsonInclude(JsonInclude.Include.NON_NULL) Ranking ranking)
            implements ComoRagEvent {

        static Retrieve of(int cycle, String probe, TriRetriever.LayerResult result) {
            return new Retrieve(
                    cycle,
                    probe,
                    result.layer(),
                    result.items().stream().map(Item::of).toList(),
                    result.tokens(),
                    result.budget(),
                    result.excluded(),
                    result.facts(),
                    result.ranking());
        }
    }

    /** An item a layer returned, by id and place: a veridical unit or a summary over {@code units}. */
    @Schema(name = "ComoRagItem")
    record Item(String id, UUID documentId, int start, int end, List<Integer> units, int tokens, double score) {

        static Item of(Evidence e) {
            return new Item(
                    e.id(), e.documentId(), e.span().start(), e.span().end(), e.units(), e.tokens(), round4(e.score()));
        }
    }

    /**
     * How the veridical units were ranked: by fusion ({@code mode} only), or by personalised PageRank
     * with the facts linked to the probe, how they were filtered, the strongest seeds, the best units and
     * the time it took; or, with no entity seeded, by dense similarity ({@code fallback} says why).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "ComoRagRanking")
    record Ranking(
            String mode,
            List<LinkedFact> linkedFacts,
            Filtering factFilter,
            String fallback,
            List<Seed> seeds,
            Integer passageSeeds,
            List<TopPassage> topPassages,
            Double pagerankMs) {

        static Ranking fusion() {
            return new Ranking(ComoRagOptions.FUSION, null, null, null, null, null, null, null);
        }
    }

    /** A fact linked to the probe by similarity; {@code kept}: kept by the fact filter, so it seeds the ranking. */
    @Schema(name = "ComoRagLinkedFact")
    record LinkedFact(String fact, double score, boolean kept) {}

    /**
     * How the linked facts were filtered: {@code llm} (the model's recognition memory) or {@code margin}
     * (within 0.1 of the best one's similarity); {@code fallback}, why the margin rule stood in for the
     * model; {@code dropped}, items of the model's reply that named no fact offered.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "ComoRagFactFilter")
    record Filtering(String method, String fallback, List<String> dropped) {}

    @Schema(name = "ComoRagSeed")
    record Seed(String entity, double weight) {}

    @Schema(name = "ComoRagTopPassage")
    record TopPassage(String id, double score) {}

    /**
     * Mem-Encode wrote a memory unit: the cue (key findings) on how one layer's evidence for a probe
     * bears on the question; {@code findingsDropped} counts findings beyond the cue's limit.
     */
    @JsonTypeName("comorag.memory-encode")
    @Schema(name = "ComoRagMemoryEncode")
    record MemoryEncode(
            String unit, int cycle, String probe, String layer, List<String> evidence, String cue, int findingsDropped)
            implements ComoRagEvent {

        static MemoryEncode of(MemoryUnit unit, int findingsDropped) {
            return new MemoryEncode(
                    unit.id(),
                    unit.cycle(),
                    unit.probe(),
                    unit.layer(),
                    unit.evidence().stream().map(Evidence::id).toList(),
                    unit.cue(),
                    findingsDropped);
        }
    }

    /** Mem-Fuse: the pool's units closest to the question, fused into the background note the next try reads. */
    @JsonTypeName("comorag.memory-fuse")
    @Schema(name = "ComoRagMemoryFuse")
    record MemoryFuse(int cycle, int poolSize, List<Selected> selected, String history) implements ComoRagEvent {}

    @Schema(name = "ComoRagSelectedUnit")
    record Selected(String unit, double similarity) {}

    /** Mem-Update after a failed try: the units added to the pool, and what the question has seen so far. */
    @JsonTypeName("comorag.memory-update")
    @Schema(name = "ComoRagMemoryUpdate")
    record MemoryUpdate(int cycle, List<String> added, int poolSize, int seen, List<String> probes)
            implements ComoRagEvent {}

    /** A cycle ended before its try: no new probe, or no layer returned new evidence. */
    @JsonTypeName("comorag.stop")
    @Schema(name = "ComoRagStop")
    record Stop(int cycle, String reason) implements ComoRagEvent {}

    /**
     * One Try-Answer: the verdict, the reply's answer and analysis, where each quoted support was found,
     * and what the answerer was shown (item ids and tokens per layer).
     *
     * @param choice the valid choice of a multiple-choice question, where it gave one
     * @param reads  {@code memory} (the step's cues with their items) or {@code evidence}
     * @param cues   the memory units whose cues it read
     */
    @JsonTypeName("comorag.try-answer")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "ComoRagTryAnswer")
    record Attempt(
            int cycle,
            String verdict,
            boolean canAnswer,
            String answer,
            Integer choice,
            double confidence,
            String analysis,
            List<Support> evidence,
            int citations,
            String reads,
            List<String> cues,
            Shown context)
            implements ComoRagEvent {}

    /** A support the answerer gave: the item it named, whether its quote became a citation, and where it was found. */
    @Schema(name = "ComoRagSupport")
    record Support(String item, boolean located, String where) {}

    /** The items a try was shown per layer, and the tokens of each layer and of the history. */
    @Schema(name = "ComoRagShown")
    record Shown(List<String> veridical, List<String> semantic, List<String> episodic, Shares tokens) {}

    /**
     * The loop's answer and how it ended: {@code answered} (a try settled the question),
     * {@code not-settled} or {@code budget}.
     */
    @JsonTypeName("comorag.answer")
    @Schema(name = "ComoRagAnswer")
    record Answer(
            String outcome,
            int cycle,
            String answer,
            double confidence,
            int citations,
            int poolSize,
            List<String> probes)
            implements ComoRagEvent {}

    /** A score as the trace shows it: four decimals. */
    static double round4(double value) {
        return Math.round(value * 10_000) / 10_000.0;
    }
}
