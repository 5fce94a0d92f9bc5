package io.lorekeeper.memory;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.stereotype.Component;

import io.lorekeeper.document.DocumentInfo;
import io.lorekeeper.document.Documents;
import io.lorekeeper.document.IngestionStage;
import io.lorekeeper.document.StageRun;
import io.lorekeeper.llm.Budget;
import io.lorekeeper.llm.CallScope;
import io.lorekeeper.llm.LlmGateway;
import io.lorekeeper.llm.LlmSession;
import io.lorekeeper.llm.Role;
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
    private final Documents documents;
    private final MemorizerSettings settings;

    PageHeaderStage(LlmGateway gateway, MemorizerStore store, Documents documents, MemorizerSettings settings) {
        this.gateway = gateway;
        this.store = store;
        this.documents = documents;
        this.settings = settings;
    }

    /** What the memorizer returns as a page's header. */
    record HeaderReply(@NotBlank String header) {
    }

    @Override
    public String name() {
        return NAME;
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
        List<MemorizerStore.Page> pages = store.pages(documentId);
        int done = (int) pages.stream().filter(MemorizerStore.Page::hasHeader).count();
        run.progress(done, pages.size());
        if (done == pages.size()) {
            return;
        }
        String text = documents.text(documentId);
        List<MemorizerStore.Memo> memos = store.memos(documentId);
        LlmSession llm = gateway.open(CallScope.document(run.document().tenantId(), documentId), Budget.unlimited());
        for (MemorizerStore.Page page : pages) {
            if (page.hasHeader()) {
                continue;
            }
            PageExcerpt excerpt = PageExcerpt.of(page.span().of(text), settings.maxPageTokens());
            HeaderReply reply = llm.structured(Role.MEMORIZER, TEMPLATE, Map.of(
                    "memos", MemoryContext.before(memos, page.ordinal(), settings.contextTokens()),
                    "pageNumber", page.ordinal(),
                    "pageNote", excerpt.note(),
                    "page", excerpt.text()), HeaderReply.class);
            store.setHeader(documentId, page.ordinal(), reply.header().strip());
            run.progress(++done, pages.size());
        }
    }

    @Override
    public void reset(UUID documentId) {
        store.clearHeaders(documentId);
    }
}
