package io.lorekeeper.comorag;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.springframework.stereotype.Component;

import io.lorekeeper.document.DocumentInfo;
import io.lorekeeper.document.Documents;
import io.lorekeeper.memory.Embeddings;
import io.lorekeeper.retrieval.Retriever;
import io.lorekeeper.strategy.AnswerStrategy;
import io.lorekeeper.strategy.QuestionContext;
import io.lorekeeper.strategy.QuestionOptions;
import io.lorekeeper.strategy.StrategyRequirements;
import io.lorekeeper.strategy.StrategyResult;

/**
 * ComoRAG (seed 001): a three-layer index built at ingestion (veridical units with triples,
 * recursive thematic cluster summaries, sliding-window plot summaries) and, per question, a
 * metacognitive loop that probes, retrieves, encodes what it found into a memory pool, fuses the
 * pool into a background note and tries to answer, until it can or its cycles run out
 * ({@link MetacognitiveLoop}). Options: {@link ComoRagOptions}.
 */
@Component
class ComoRagStrategy implements AnswerStrategy {

    private final ComoRagStore store;
    private final Retriever retriever;
    private final Embeddings embeddings;
    private final Documents documents;
    private final GraphIndex graphs;

    ComoRagStrategy(
            ComoRagStore store, Retriever retriever, Embeddings embeddings, Documents documents, GraphIndex graphs) {
        this.graphs = graphs;
        this.store = store;
        this.retriever = retriever;
        this.embeddings = embeddings;
        this.documents = documents;
    }

    @Override
    public String name() {
        return "comorag";
    }

    @Override
    public StrategyRequirements requirements() {
        return new StrategyRequirements(
                true,
                Set.of(VeridicalStage.NAME, TripleStage.NAME, SemanticStage.NAME, EpisodicStage.NAME),
                "ComoRAG: veridical, semantic and episodic index layers, then probe → tri-retrieve → encode → fuse → try-answer cycles "
                        + "over a memory pool");
    }

    @Override
    public void validate(QuestionOptions options) {
        ComoRagOptions.of(options);
    }

    /** The ablation without a layer does not need that layer's memory. */
    @Override
    public Set<String> requiredMemories(QuestionOptions options) {
        return ComoRagOptions.of(options).stages();
    }

    @Override
    public StrategyResult answer(QuestionContext context) {
        ComoRagOptions options = ComoRagOptions.of(context.options());
        recordIndex(context, options);
        TriRetriever tri = new TriRetriever(
                store, retriever, context.documents(), documents::text, graphs::load, options.veridical());
        return new MetacognitiveLoop(context, options, tri, embeddings, store, documents::text).run();
    }

    private void recordIndex(QuestionContext context, ComoRagOptions options) {
        for (DocumentInfo document : context.documents()) {
            ComoRagStore.Stats stats = store.stats(document.id());
            Map<String, Object> event = new LinkedHashMap<>();
            event.put("documentId", document.id());
            event.put("units", stats.units());
            event.put("unitsWithTriples", stats.unitsWithTriples());
            event.put("triples", stats.triples());
            event.put("semanticSummaries", stats.semantic());
            event.put("semanticLevels", stats.semanticLevels());
            event.put("episodicSummaries", stats.episodic());
            event.put("episodicLevels", stats.episodicLevels());
            store.graphStats(document.id())
                    .ifPresent(g -> event.put(
                            "graph",
                            Map.of(
                                    "entities", g[0],
                                    "units", g[1],
                                    "factEdges", g[2],
                                    "passageEdges", g[3],
                                    "synonymEdges", g[4])));
            event.put("veridical", options.veridical());
            event.put("tryAnswer", options.tryAnswer());
            event.put("layers", options.layers());
            event.put("memory", options.memory());
            event.put("probing", options.probing());
            event.put(
                    "budget",
                    Map.of(
                            "veridical",
                            options.tokensFor(ComoRagOptions.VERIDICAL),
                            "semantic",
                            options.tokensFor(ComoRagOptions.SEMANTIC),
                            "episodic",
                            options.tokensFor(ComoRagOptions.EPISODIC),
                            "history",
                            options.historyTokens()));
            context.trace().record("index", event);
        }
    }
}
