package io.lorekeeper.reasoning.comorag;

import java.util.List;
import java.util.UUID;

import org.springframework.stereotype.Component;

import io.lorekeeper.document.DocumentInfo;
import io.lorekeeper.document.IngestionStage;
import io.lorekeeper.document.StageRun;
import io.lorekeeper.llm.LlmGateway;
import io.lorekeeper.reasoning.comorag.ComoRagStore.ChunkRow;

/**
 * The {@code veridical} stage: ComoRAG's units (about 512 tokens of consecutive chunks) with the
 * mean of their chunks' embeddings. No model call; it is the base the {@code triples},
 * {@code semantic} and {@code episodic} stages build on. Units are stored one by one, and a
 * conversation that grew gets units for its new chunks only (units never cross a page, and new
 * sessions are new pages).
 */
@Component
class VeridicalStage implements IngestionStage {

    static final String NAME = "veridical";

    private final ComoRagStore store;
    private final LlmGateway gateway;
    private final ComoRagSettings settings;

    VeridicalStage(ComoRagStore store, LlmGateway gateway, ComoRagSettings settings) {
        this.store = store;
        this.gateway = gateway;
        this.settings = settings;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int position() {
        return 60;
    }

    @Override
    public boolean enrichment() {
        return true;
    }

    @Override
    public boolean onDemand() {
        return true;
    }

    @Override
    public Applicability applicability(DocumentInfo document) {
        return IndexApplicability.of(gateway, document);
    }

    @Override
    public void run(StageRun run) {
        UUID documentId = run.document().id();
        int existing = store.unitCount(documentId);
        List<List<ChunkRow>> units = UnitPacking.pack(store.chunksAfter(documentId, store.lastUnitChunk(documentId)), settings.unitTokens());
        int total = existing + units.size();
        run.progress(existing, total);
        for (int i = 0; i < units.size(); i++) {
            store.insertUnit(documentId, existing + i, units.get(i));
            run.progress(existing + i + 1, total);
        }
    }

    /** Units are what every other layer points into, so the summaries built over them go too. */
    @Override
    public void reset(UUID documentId) {
        store.deleteSummaries(documentId, ComoRagStore.SEMANTIC);
        store.deleteSummaries(documentId, ComoRagStore.EPISODIC);
        store.deleteUnits(documentId);
    }
}
