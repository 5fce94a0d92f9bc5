package io.lorekeeper.memory;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * GAM memorizing (paper section 2.2.1): one memo per page, written with the memory so far (the
 * earlier memos) as context, so the memory grows page by page like the paper's m_i + {mu_i}. Each
 * memo is stored and embedded as soon as it is written: a job that stops resumes at the first page
 * without a memo, and a conversation that grew gets memos for its new pages only.
 */
@Component
class MemoStage implements IngestionStage {

    static final String NAME = "memos";
    static final String TEMPLATE = "gam/memo";

    private final LlmGateway gateway;
    private final MemorizerStore store;
    private final Documents documents;
    private final Embeddings embeddings;
    private final MemorizerSettings settings;

    MemoStage(LlmGateway gateway, MemorizerStore store, Documents documents, Embeddings embeddings, MemorizerSettings settings) {
        this.gateway = gateway;
        this.store = store;
        this.documents = documents;
        this.embeddings = embeddings;
        this.settings = settings;
    }

    /** What the memorizer returns for one page. */
    record MemoReply(@NotBlank String memo) {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int position() {
        return 30;
    }

    @Override
    public Applicability applicability(DocumentInfo document) {
        return MemorizerApplicability.of(gateway, document);
    }

    @Override
    public void run(StageRun run) {
        UUID documentId = run.document().id();
        List<MemorizerStore.Page> pages = store.pages(documentId);
        List<MemorizerStore.Memo> memos = new ArrayList<>(store.memos(documentId));
        Set<Integer> memorized = new HashSet<>();
        memos.forEach(m -> memorized.add(m.pageOrdinal()));
        int done = memorized.size();
        run.progress(done, pages.size());
        if (done == pages.size()) {
            return;
        }
        String text = documents.text(documentId);
        LlmSession llm = gateway.open(CallScope.document(run.document().tenantId(), documentId), Budget.unlimited());
        for (MemorizerStore.Page page : pages) {
            if (memorized.contains(page.ordinal())) {
                continue;
            }
            PageExcerpt excerpt = PageExcerpt.of(page.span().of(text), settings.maxPageTokens());
            MemoReply reply = llm.structured(Role.MEMORIZER, TEMPLATE, Map.of(
                    "memos", MemoryContext.before(memos, page.ordinal(), settings.contextTokens()),
                    "pageNumber", page.ordinal(),
                    "pageNote", excerpt.note(),
                    "page", excerpt.text()), MemoReply.class);
            String memo = reply.memo().strip();
            store.insertMemo(documentId, page, memo, embeddings.passages(List.of(memo)).getFirst());
            memos.add(new MemorizerStore.Memo(page.ordinal(), memo));
            run.progress(++done, pages.size());
        }
    }

    @Override
    public void reset(UUID documentId) {
        store.deleteMemos(documentId);
    }
}
