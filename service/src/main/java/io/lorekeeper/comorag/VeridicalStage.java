package io.lorekeeper.comorag;

import java.util.List;
import java.util.UUID;

import org.springframework.stereotype.Component;

import io.lorekeeper.comorag.ComoRagStore.ChunkRow;
import io.lorekeeper.document.stage.StageOrder;
import io.lorekeeper.document.stage.StageRun;
import io.lorekeeper.llm.LlmGateway;

/**
 * The {@code veridical} stage: ComoRAG's units (about 512 tokens of consecutive chunks) with the
 * mean of their chunks' embeddings. No model call; it is the base the {@code triples},
 * {@code semantic} and {@code episodic} stages build on. Units are stored one by one, and a
 * conversation that grew gets units for its new chunks only (units never cross a page, and new
 * sessions are new pages). A reindex naming this stage alone keeps the units that still match the
 * chunks, so the layers built on them stay valid.
 */
@Component
class VeridicalStage extends IndexStage {

    static final String NAME = "veridical";

    private final ComoRagStore store;
    private final ComoRagSettings settings;

    VeridicalStage(ComoRagStore store, LlmGateway gateway, ComoRagSettings settings) {
        super(NAME, StageOrder.COMORAG_VERIDICAL, gateway);
        this.store = store;
        this.settings = settings;
    }

    /**
     * Units are a function of the chunks, so a run reconciles: units still matching the chunks are
     * kept (with what was built on them), missing ones are added, and if the chunks changed under
     * them (a rebuilt segmentation) every unit is replaced. Their embeddings are recomputed from the
     * chunks' in one statement, as the chunk embeddings may have been rebuilt.
     */
    @Override
    public void run(StageRun run) {
        UUID documentId = run.document().id();
        List<List<ChunkRow>> units = UnitPacking.pack(store.chunksAfter(documentId, -1), settings.unitTokens());
        List<ComoRagStore.Unit> stored = store.units(documentId);
        boolean matches = stored.size() <= units.size();
        for (int i = 0; matches && i < stored.size(); i++) {
            matches = stored.get(i).firstChunk() == units.get(i).getFirst().ordinal()
                    && stored.get(i).lastChunk() == units.get(i).getLast().ordinal();
        }
        int existing = stored.size();
        if (!matches) {
            // only after a rebuilt segmentation, which resets every later stage as well
            store.deleteSummaries(documentId, ComoRagStore.SEMANTIC);
            store.deleteSummaries(documentId, ComoRagStore.EPISODIC);
            store.deleteUnits(documentId);
            existing = 0;
        }
        run.progress(existing, units.size());
        for (int i = existing; i < units.size(); i++) {
            store.insertUnit(documentId, i, units.get(i));
            run.progress(i + 1, units.size());
        }
        store.refreshUnitEmbeddings(documentId);
    }

    /**
     * Nothing to forget: deleting the units would take the triples and summaries of the other
     * stages with them (a reindex naming this stage alone rebuilds only this stage), and the next
     * run recomputes the units and their embeddings from the chunks anyway.
     */
    @Override
    public void reset(UUID documentId) {}

    /** Fails a stage that builds on units when there are none yet although the document has text. */
    static void requireUnits(ComoRagStore store, StageRun run, String stage) {
        if (run.document().chunkCount() > 0 && store.unitCount(run.document().id()) == 0) {
            throw new IllegalStateException("the " + stage
                    + " stage builds on the veridical units, which are not built yet; POST /v1/documents/"
                    + run.document().id() + "/reindex with {\"stages\": [\"" + NAME + "\", \"" + stage + "\"]}");
        }
    }
}
