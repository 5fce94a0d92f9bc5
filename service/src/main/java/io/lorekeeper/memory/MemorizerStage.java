package io.lorekeeper.memory;

import io.lorekeeper.document.DocumentInfo;
import io.lorekeeper.document.stage.EnrichmentStage;
import io.lorekeeper.llm.LlmGateway;

/**
 * What GAM's two memorizer stages ({@link MemoStage}, {@link PageHeaderStage}) share: the page
 * store, the memorizer's walk over its pages ({@link PageMemorizer}), and when they apply (an
 * LLM-written memory: an LLM configured, a profile that builds one). Each stage says only what it
 * asks of a page and how it stores the reply.
 */
abstract class MemorizerStage extends EnrichmentStage {

    protected final MemorizerStore store;
    protected final PageMemorizer pages;
    private final LlmGateway gateway;

    MemorizerStage(String name, int position, LlmGateway gateway, MemorizerStore store, PageMemorizer pages) {
        super(name, position);
        this.gateway = gateway;
        this.store = store;
        this.pages = pages;
    }

    @Override
    public final Applicability applicability(DocumentInfo document) {
        return Applicability.llmWritten(document, gateway.isConfigured());
    }
}
