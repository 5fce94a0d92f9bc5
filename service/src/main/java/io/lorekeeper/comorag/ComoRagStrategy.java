package io.lorekeeper.comorag;

import java.util.List;
import java.util.Set;

import org.springframework.stereotype.Component;

import io.lorekeeper.document.DocumentInfo;
import io.lorekeeper.document.Documents;
import io.lorekeeper.memory.Embeddings;
import io.lorekeeper.retrieval.Retriever;
import io.lorekeeper.strategy.Aptitude;
import io.lorekeeper.strategy.GoodAt;
import io.lorekeeper.strategy.QuestionContext;
import io.lorekeeper.strategy.QuestionOptions;
import io.lorekeeper.strategy.SettingsStrategy;
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
class ComoRagStrategy extends SettingsStrategy<ComoRagOptions> {

    private final ComoRagStore store;
    private final Retriever retriever;
    private final Embeddings embeddings;
    private final Documents documents;
    private final GraphIndex graphs;

    ComoRagStrategy(
            ComoRagStore store, Retriever retriever, Embeddings embeddings, Documents documents, GraphIndex graphs) {
        super(
                "comorag",
                new StrategyRequirements(
                        true,
                        Set.of(VeridicalStage.NAME, TripleStage.NAME, SemanticStage.NAME, EpisodicStage.NAME),
                        "ComoRAG: veridical, semantic and episodic index layers, then probe → tri-retrieve → encode → fuse → try-answer cycles "
                                + "over a memory pool"),
                ComoRagOptions::of);
        this.graphs = graphs;
        this.store = store;
        this.retriever = retriever;
        this.embeddings = embeddings;
        this.documents = documents;
    }

    /** The ablation without a layer does not need that layer's memory. */
    @Override
    public Set<String> requiredMemories(QuestionOptions options) {
        return ComoRagOptions.of(options).stages();
    }

    @Override
    public List<GoodAt> goodAt() {
        return List.of(GoodAt.of(Aptitude.LONG_TEXT_WHOLE_STORY, 10));
    }

    /** A probe, one try at an answer, and the answer. */
    @Override
    public int minimumCalls() {
        return 3;
    }

    @Override
    protected StrategyResult answer(QuestionContext context, ComoRagOptions options) {
        recordIndex(context, options);
        TriRetriever tri = new TriRetriever(
                store,
                retriever,
                context.documents(),
                documents::text,
                graphs::load,
                options.veridical(),
                options.factFilter().equals(ComoRagOptions.LLM)
                        ? FactFilter.withModel(context.llm())
                        : FactFilter.marginOnly(),
                options.entitySeeds());
        return new MetacognitiveLoop(context, options, tri, embeddings, store, documents::text).run();
    }

    private void recordIndex(QuestionContext context, ComoRagOptions options) {
        for (DocumentInfo document : context.documents()) {
            ComoRagEvent.GraphSize graph = store.graphSize(document.id()).orElse(null);
            context.trace().record(ComoRagEvent.Index.of(document.id(), store.stats(document.id()), graph, options));
        }
    }
}
