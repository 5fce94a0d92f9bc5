package io.lorekeeper.memory;

import java.util.UUID;

import org.springframework.stereotype.Component;

import io.lorekeeper.document.DocumentInfo;
import io.lorekeeper.document.IngestionStage;
import io.lorekeeper.document.StageRun;
import io.lorekeeper.llm.LlmGateway;
import jakarta.validation.constraints.NotBlank;

/**
 * GAM paging (paper section 2.2.1): a header per page carrying the context a reader of that page
 * alone would miss (who, where, when, what came before), written from the page and the memos of
 * the pages before it, in the spirit of contextual retrieval. Runs after {@link MemoStage} so that
 * those memos exist; resumes at the first page without a header.
 */
@Component
class PageHeaderStage implements IngestionStage {

    static final String NAME = "page-headers";
    static final String TEMPLATE = "gam/page-header";

    private final LlmGateway gateway;
    private final MemorizerStore store;
    private final PageMemorizer pages;

    PageHeaderStage(LlmGateway gateway, MemorizerStore store, PageMemorizer pages) {
        this.gateway = gateway;
        this.store = store;
        this.pages = pages;
    }

    /** What the memorizer returns as a page's header. */
    record HeaderReply(@NotBlank String header) {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean enrichment() {
        return true;
    }

    @Override
    public int position() {
        return 40;
    }

    @Override
    public Applicability applicability(DocumentInfo document) {
        return MemorizerApplicability.of(gateway, document);
    }

    @Override
    public void run(StageRun run) {
        UUID documentId = run.document().id();
        pages.forEachPending(run, store.pages(documentId), MemorizerStore.Page::hasHeader, store.memos(documentId), TEMPLATE,
                HeaderReply.class, (page, reply) -> store.setHeader(documentId, page.ordinal(), reply.header().strip()));
    }

    @Override
    public void reset(UUID documentId) {
        store.clearHeaders(documentId);
    }
}
