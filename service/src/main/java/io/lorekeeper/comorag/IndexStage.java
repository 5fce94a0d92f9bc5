package io.lorekeeper.comorag;

import io.lorekeeper.document.DocumentInfo;
import io.lorekeeper.document.IngestionStage;
import io.lorekeeper.llm.LlmGateway;
import io.lorekeeper.memory.MemorizerApplicability;

/**
 * What the four layers of ComoRAG's index have in common: each is an LLM-built memory (it never
 * fails its document), built only on demand (hundreds of calls for a novel), and skipped where
 * the memorizer would be (no LLM, or the retrieval-only profile).
 */
abstract class IndexStage implements IngestionStage {

    private final String name;
    private final int position;
    protected final LlmGateway gateway;

    IndexStage(String name, int position, LlmGateway gateway) {
        this.name = name;
        this.position = position;
        this.gateway = gateway;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final int position() {
        return position;
    }

    @Override
    public final boolean enrichment() {
        return true;
    }

    @Override
    public final boolean onDemand() {
        return true;
    }

    @Override
    public Applicability applicability(DocumentInfo document) {
        return MemorizerApplicability.of(gateway, document);
    }
}
