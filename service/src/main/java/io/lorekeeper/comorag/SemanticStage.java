package io.lorekeeper.comorag;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import io.lorekeeper.comorag.ComoRagStore.Summary;
import io.lorekeeper.comorag.ComoRagStore.Vectored;
import io.lorekeeper.document.Documents;
import io.lorekeeper.document.StageRun;
import io.lorekeeper.llm.Budget;
import io.lorekeeper.llm.CallScope;
import io.lorekeeper.llm.LlmGateway;
import io.lorekeeper.llm.LlmSession;
import io.lorekeeper.memory.Embeddings;

/**
 * The {@code semantic} stage (ComoRAG's semantic layer, after RAPTOR): the units are clustered by
 * meaning (a Gaussian mixture with soft assignment, {@link SemanticMixture}, or Leiden communities,
 * {@link SemanticClusters}, by {@code lorekeeper.comorag.clustering}), each cluster is summarised by the MEMORIZER and the summary
 * embedded; then the summaries are clustered and summarised in turn, until a level has one cluster,
 * stops getting smaller, or {@code semanticLevels} levels exist.
 */
@Component
class SemanticStage extends IndexStage {

    static final String NAME = "semantic";
    static final String TEMPLATE = "comorag/semantic-summary";
    private static final Logger log = LoggerFactory.getLogger(SemanticStage.class);

    private final ComoRagStore store;
    private final Documents documents;
    private final Embeddings embeddings;
    private final ComoRagSettings settings;

    SemanticStage(
            ComoRagStore store,
            LlmGateway gateway,
            Documents documents,
            Embeddings embeddings,
            ComoRagSettings settings) {
        super(NAME, 70, gateway);
        this.store = store;
        this.documents = documents;
        this.embeddings = embeddings;
        this.settings = settings;
    }

    @Override
    public void run(StageRun run) {
        VeridicalStage.requireUnits(store, run, NAME);
        UUID documentId = run.document().id();
        List<Vectored<ComoRagStore.Unit>> units = store.unitVectors(documentId);
        if (units.isEmpty()) {
            store.deleteSummaries(documentId, ComoRagStore.SEMANTIC);
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
                ComoRagStore.SEMANTIC,
                units.stream().map(Vectored::item).toList(),
                settings.buildParallelism());
        List<LayerWriter.Node> nodes = LayerWriter.unitNodes(units, text);
        int top = 0;
        for (int level = 1; level <= settings.semanticLevels() && !nodes.isEmpty(); level++) {
            List<List<Integer>> clusters = settings.clusters(
                    nodes.stream().map(LayerWriter.Node::vector).toList());
            if (level > 1 && clusters.size() >= nodes.size()) {
                break;
            }
            List<Vectored<Summary>> summaries = writer.write(
                    level,
                    nodes,
                    clusters,
                    TEMPLATE,
                    members -> Map.of("members", Members.render(members), "count", members.size()));
            top = level;
            if (clusters.size() <= 1) {
                break;
            }
            nodes = LayerWriter.summaryNodes(summaries);
        }
        store.deleteAbove(documentId, ComoRagStore.SEMANTIC, top);
        log.info("Semantic layer of document {}: {} levels, {} new summaries", documentId, top, writer.calls());
    }

    @Override
    public void reset(UUID documentId) {
        store.deleteSummaries(documentId, ComoRagStore.SEMANTIC);
    }
}
