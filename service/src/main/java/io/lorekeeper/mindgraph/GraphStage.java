package io.lorekeeper.mindgraph;

import java.util.UUID;

import org.springframework.stereotype.Component;

import io.lorekeeper.document.DocumentInfo;
import io.lorekeeper.document.stage.EnrichmentStage;
import io.lorekeeper.document.stage.StageOrder;
import io.lorekeeper.document.stage.StageRun;
import io.lorekeeper.llm.Budget;
import io.lorekeeper.llm.CallScope;
import io.lorekeeper.llm.LlmGateway;

/**
 * The {@code graph} ingestion stage: a question-agnostic MindGraph of the whole document, which
 * several questions can share ({@code options.graph = shared}) and a question-aware build can start
 * from ({@code options.start = shared}; by default it starts empty, as the paper's does). Stored after each block, so an interrupted job resumes at the next block, and a
 * conversation that grew gets blocks for its new text only. A block whose builder reply stays unusable
 * after the gateway's repair adds nothing and is reported as a gap ({@link StageRun#itemFailed}); the
 * stage's next run tries it again.
 */
@Component
class GraphStage extends EnrichmentStage {

    static final String NAME = "graph";

    private final GraphBuilder builder;
    private final GraphStore store;
    private final LlmGateway gateway;
    private final MindGraphSettings settings;

    GraphStage(GraphBuilder builder, GraphStore store, LlmGateway gateway, MindGraphSettings settings) {
        super(NAME, StageOrder.GRAPH);
        this.builder = builder;
        this.store = store;
        this.gateway = gateway;
        this.settings = settings;
    }

    @Override
    public Applicability applicability(DocumentInfo document) {
        Applicability llm = Applicability.llmWritten(document, gateway.isConfigured());
        if (!llm.applies()) {
            return llm;
        }
        if (!settings.ingest()) {
            return Applicability.skip("lorekeeper.mindgraph.ingest is off");
        }
        return Applicability.APPLIES;
    }

    @Override
    public void run(StageRun run) {
        UUID documentId = run.document().id();
        builder.obtainShared(
                gateway.open(CallScope.document(run.document().tenantId(), documentId), Budget.unlimited()),
                documentId,
                settings.chunkTokens(),
                run::progress,
                (block, reason) -> run.itemFailed(
                        "block " + (block.index() + 1) + " [" + block.start() + ", " + block.end() + ")", reason));
    }

    @Override
    public void reset(UUID documentId) {
        store.deleteShared(documentId);
    }
}
