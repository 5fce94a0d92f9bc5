package io.lorekeeper.memory;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import jakarta.validation.constraints.NotBlank;

import org.springframework.stereotype.Component;

import io.lorekeeper.document.stage.StageOrder;
import io.lorekeeper.document.stage.StageRun;
import io.lorekeeper.llm.LlmGateway;

/**
 * GAM memorizing (paper section 2.2.1): one memo per page, written with the memory so far (the
 * earlier memos, all of them when the memorizer's context holds them) as context, so the memory
 * grows page by page like the paper's m_i + {mu_i}. Each memo is stored and embedded as soon as it
 * is written: a job that stops resumes at the first page without a memo, and a conversation that
 * grew gets memos for its new pages only. The embeddings rank the memos a planner sees when they do
 * not all fit its prompt, and serve GAM's optional {@code memo} search tool.
 */
@Component
class MemoStage extends MemorizerStage {

    static final String NAME = "memos";
    static final String TEMPLATE = "gam/memo";
    /** The memo prompt that also turns relative dates into dates ({@code lorekeeper.memorizer.resolve-dates}). */
    static final String DATED_TEMPLATE = "gam/memo-dated";

    private final Embeddings embeddings;
    private final String template;

    MemoStage(
            LlmGateway gateway,
            MemorizerStore store,
            Embeddings embeddings,
            PageMemorizer pages,
            MemorizerSettings settings) {
        super(NAME, StageOrder.MEMOS, gateway, store, pages);
        this.embeddings = embeddings;
        this.template = settings.resolveDates() ? DATED_TEMPLATE : TEMPLATE;
    }

    /** What the memorizer returns for one page. */
    record MemoReply(@NotBlank String memo) {}

    @Override
    public void run(StageRun run) {
        UUID documentId = run.document().id();
        List<MemorizerStore.Memo> memos = new ArrayList<>(store.memos(documentId));
        Set<Integer> memorized = new HashSet<>();
        memos.forEach(m -> memorized.add(m.pageOrdinal()));
        pages.forEachPending(
                run,
                store.pages(documentId),
                page -> memorized.contains(page.ordinal()),
                memos,
                template,
                MemoReply.class,
                (page, reply) -> {
                    String memo = reply.memo().strip();
                    store.insertMemo(
                            documentId,
                            page,
                            memo,
                            embeddings.passages(List.of(memo)).getFirst());
                    memos.add(new MemorizerStore.Memo(page.ordinal(), memo));
                });
    }

    @Override
    public void reset(UUID documentId) {
        store.deleteMemos(documentId);
    }
}
