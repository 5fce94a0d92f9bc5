package io.lorekeeper.comorag;

import java.util.List;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.lorekeeper.comorag.ComoRagStore.Vectored;
import io.lorekeeper.document.Documents;
import io.lorekeeper.document.stage.StageRun;
import io.lorekeeper.llm.Budget;
import io.lorekeeper.llm.CallScope;
import io.lorekeeper.llm.LlmGateway;
import io.lorekeeper.llm.LlmSession;
import io.lorekeeper.memory.Embeddings;

/**
 * What the two summary layers ({@link SemanticStage}, {@link EpisodicStage}) share: over the
 * document's veridical units, level after level of MEMORIZER summaries written by a {@link LayerWriter},
 * the levels above the last one written dropped. Each layer says only how a level groups the nodes
 * of the level below ({@link #writeLevels}).
 */
abstract class SummaryLayerStage extends IndexStage {

    private static final Logger log = LoggerFactory.getLogger(SummaryLayerStage.class);

    protected final ComoRagStore store;
    protected final ComoRagSettings settings;
    private final Documents documents;
    private final Embeddings embeddings;
    private final String layer;

    SummaryLayerStage(
            String name,
            int position,
            String layer,
            ComoRagStore store,
            LlmGateway gateway,
            Documents documents,
            Embeddings embeddings,
            ComoRagSettings settings) {
        super(name, position, gateway);
        this.layer = layer;
        this.store = store;
        this.documents = documents;
        this.embeddings = embeddings;
        this.settings = settings;
    }

    /**
     * Writes the layer's levels from the units' nodes up; returns the top level written (0: none).
     *
     * @param units how many units the document has
     */
    protected abstract int writeLevels(LayerWriter writer, List<LayerWriter.Node> nodes, int units);

    @Override
    public void run(StageRun run) {
        VeridicalStage.requireUnits(store, run, name());
        UUID documentId = run.document().id();
        List<Vectored<ComoRagStore.Unit>> units = store.unitVectors(documentId);
        if (units.isEmpty()) {
            store.deleteSummaries(documentId, layer);
            run.progress(0, 0);
            return;
        }
        String text = documents.text(documentId);
        LlmSession llm = gateway.open(CallScope.document(run.document().tenantId(), documentId), Budget.unlimited());
        LayerWriter writer = new LayerWriter(
                store,
                embeddings,
                llm,
                run,
                layer,
                units.stream().map(Vectored::item).toList(),
                settings.buildParallelism());
        int top = writeLevels(writer, LayerWriter.unitNodes(units, text), units.size());
        store.deleteAbove(documentId, layer, top);
        log.info(
                "The {} layer of document {}: {} units, {} levels, {} new summaries",
                layer,
                documentId,
                units.size(),
                top,
                writer.calls());
    }

    @Override
    public void reset(UUID documentId) {
        store.deleteSummaries(documentId, layer);
    }
}
