package io.lorekeeper.comorag;

import java.util.List;
import java.util.Map;

import org.springframework.stereotype.Component;

import io.lorekeeper.comorag.ComoRagStore.Summary;
import io.lorekeeper.comorag.ComoRagStore.Vectored;
import io.lorekeeper.document.Documents;
import io.lorekeeper.document.stage.StageOrder;
import io.lorekeeper.llm.LlmGateway;
import io.lorekeeper.memory.Embeddings;

/**
 * The {@code episodic} stage (ComoRAG's episodic layer): the units, in document order, are cut
 * into windows whose size follows the paper's table ({@link EpisodicWindows}), and the MEMORIZER
 * tells each window's events in order with their causes. With {@code episodicLevels} above 1 the
 * windows slide again over the summaries for coarser views of the plot.
 */
@Component
class EpisodicStage extends SummaryLayerStage {

    static final String NAME = "episodic";
    static final String TEMPLATE = "comorag/episodic-summary";

    EpisodicStage(
            ComoRagStore store,
            LlmGateway gateway,
            Documents documents,
            Embeddings embeddings,
            ComoRagSettings settings) {
        super(
                NAME,
                StageOrder.COMORAG_EPISODIC,
                ComoRagStore.EPISODIC,
                store,
                gateway,
                documents,
                embeddings,
                settings);
    }

    @Override
    protected int writeLevels(LayerWriter writer, List<LayerWriter.Node> nodes, int units) {
        int top = 0;
        for (int level = 1; level <= settings.episodicLevels() && (level == 1 || nodes.size() > 1); level++) {
            int size = EpisodicWindows.size(nodes.size());
            List<List<Integer>> windows = EpisodicWindows.of(nodes.size(), size, settings.episodicStride());
            List<Vectored<Summary>> summaries = writer.write(
                    level,
                    nodes,
                    windows,
                    TEMPLATE,
                    members -> Map.of("members", Members.render(members), "position", position(members, units)));
            top = level;
            nodes = LayerWriter.summaryNodes(summaries);
        }
        return top;
    }

    /** Where the window lies in the story, so the summary can place its events. */
    static String position(List<LayerWriter.Node> members, int units) {
        int first = members.getFirst().units().getFirst();
        int last = members.getLast().units().getLast();
        return "together they are parts " + (first + 1) + " to " + (last + 1) + " of the " + units
                + " parts of the text";
    }
}
