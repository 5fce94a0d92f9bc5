package io.lorekeeper.comorag;

import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import io.lorekeeper.comorag.ComoRagStore.Summary;
import io.lorekeeper.comorag.ComoRagStore.Vectored;
import io.lorekeeper.document.Documents;
import io.lorekeeper.document.stage.StageOrder;
import io.lorekeeper.llm.LlmGateway;
import io.lorekeeper.memory.Embeddings;
import io.lorekeeper.text.TokenCounter;

/**
 * The {@code semantic} stage (ComoRAG's semantic layer, after RAPTOR): the units are clustered by
 * meaning (UMAP-reduced Gaussian mixtures with soft assignment, a local pass per global component
 * and a token cap, {@link SemanticMixture}, or Leiden communities, {@link SemanticClusters}, by
 * {@code lorekeeper.comorag.clustering}), each cluster is summarised by the MEMORIZER and the summary
 * embedded; then the summaries are clustered and summarised in turn, until a level has one cluster,
 * stops getting smaller, or {@code semanticLevels} levels exist.
 */
@Component
class SemanticStage extends SummaryLayerStage {

    static final String NAME = "semantic";
    static final String TEMPLATE = "comorag/semantic-summary";

    private static final Logger log = LoggerFactory.getLogger(SemanticStage.class);

    SemanticStage(
            ComoRagStore store,
            LlmGateway gateway,
            Documents documents,
            Embeddings embeddings,
            ComoRagSettings settings) {
        super(
                NAME,
                StageOrder.COMORAG_SEMANTIC,
                ComoRagStore.SEMANTIC,
                store,
                gateway,
                documents,
                embeddings,
                settings);
    }

    @Override
    protected int writeLevels(LayerWriter writer, List<LayerWriter.Node> nodes, int units) {
        int top = 0;
        for (int level = 1; level <= settings.semanticLevels() && !nodes.isEmpty(); level++) {
            long started = System.nanoTime();
            SemanticMixture.Clustering clustering = settings.clusters(
                    nodes.stream().map(LayerWriter.Node::vector).toList(),
                    nodes.stream().mapToInt(n -> TokenCounter.count(n.text())).toArray());
            List<List<Integer>> clusters = clustering.members();
            // which step made the clusters: RAPTOR's mixtures should make most of them, splits few
            log.info(
                    "Semantic level {}: {} nodes, {} clusters by origin {}, {} memberships;"
                            + " {} global components, {} local passes, {} re-clustered; {} ms",
                    level,
                    nodes.size(),
                    clusters.size(),
                    clustering.byOrigin(),
                    clustering.memberships(),
                    clustering.globalComponents(),
                    clustering.localPasses(),
                    clustering.reclustered(),
                    (System.nanoTime() - started) / 1_000_000);
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
        return top;
    }
}
