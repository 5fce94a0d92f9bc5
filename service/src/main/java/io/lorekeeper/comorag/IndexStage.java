package io.lorekeeper.comorag;

import io.lorekeeper.document.DocumentInfo;
import io.lorekeeper.document.stage.EnrichmentStage;
import io.lorekeeper.llm.LlmGateway;

/**
 * What the four layers of ComoRAG's index have in common: each is an LLM-built memory (it never
 * fails its document), built only on demand (hundreds of calls for a novel), and skipped where
 * the memorizer would be (no LLM, or the retrieval-only profile).
 */
abstract class IndexStage extends EnrichmentStage {

    protected final LlmGateway gateway;

    IndexStage(String name, int position, LlmGateway gateway) {
        super(name, position);
        this.gateway = gateway;
    }

    @Override
    public final boolean onDemand() {
        return true;
    }

    @Override
    public Applicability applicability(DocumentInfo document) {
        return Applicability.llmWritten(document, gateway.isConfigured());
    }
}
