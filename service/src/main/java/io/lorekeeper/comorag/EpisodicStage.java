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
 * The {@code episodic} stage (ComoRAG's episodic layer): the units, in document order, are cut
 * into windows whose size follows the paper's table ({@link EpisodicWindows}), and the MEMORIZER
 * tells each window's events in order with their causes. With {@code episodicLevels} above 1 the
 * windows slide again over the summaries for coarser views of the plot.
 */
@Component
class EpisodicStage extends IndexStage {

    static final String NAME = "episodic";
    static final String TEMPLATE = "comorag/episodic-summary";
    private static final Logger log = LoggerFactory.getLogger(EpisodicStage.class);

    private final ComoRagStore store;
    private final Documents documents;
    private final Embeddings embeddings;
    private final ComoRagSettings settings;

    EpisodicStage(
            ComoRagStore store,
            LlmGateway gateway,
            Documents documents,
            Embeddings embeddings,
            ComoRagSettings settings) {
        super(NAME, 75, gateway);
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
            store.deleteSummaries(documentId, ComoRagStore.EPISODIC);
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
                ComoRagStore.EPISODIC,
                units.stream().map(Vectored::item).toList(),
                settings.buildParallelism());
        List<LayerWriter.Node> nodes = LayerWriter.unitNodes(units, text);
        int top = 0;
        for (int level = 1; level <= settings.episodicLevels() && (level == 1 || nodes.size() > 1); level++) {
            int size = EpisodicWindows.size(nodes.size());
            List<List<Integer>> windows = EpisodicWindows.of(nodes.size(), size, settings.episodicStride());
            List<Vectored<Summary>> summaries = writer.write(
                    level,
                    nodes,
                    windows,
                    TEMPLATE,
                    members -> Map.of("members", Members.render(members), "position", position(members, units.size())));
            top = level;
            nodes = LayerWriter.summaryNodes(summaries);
        }
        store.deleteAbove(documentId, ComoRagStore.EPISODIC, top);
        log.info(
                "Episodic layer of document {}: {} units, {} levels, {} new summaries",
                documentId,
                units.size(),
                top,
                writer.calls());
    }

    /** Where the window lies in the story, so the summary can place its events. */
    static String position(List<LayerWriter.Node> members, int units) {
        int first = members.getFirst().units().getFirst();
        int last = members.getLast().units().getLast();
        return "together they are parts " + (first + 1) + " to " + (last + 1) + " of the " + units
                + " parts of the text";
    }

    @Override
    public void reset(UUID documentId) {
        store.deleteSummaries(documentId, ComoRagStore.EPISODIC);
    }
}
