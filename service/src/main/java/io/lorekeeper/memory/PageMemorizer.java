package io.lorekeeper.memory;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.function.Predicate;

import org.springframework.stereotype.Component;

import io.lorekeeper.document.Documents;
import io.lorekeeper.document.stage.StageRun;
import io.lorekeeper.llm.Budget;
import io.lorekeeper.llm.CallScope;
import io.lorekeeper.llm.LlmGateway;
import io.lorekeeper.llm.LlmSession;
import io.lorekeeper.llm.Role;
import io.lorekeeper.llm.UnusableReplyException;
import io.lorekeeper.platform.Failures;
import io.lorekeeper.text.TokenCounter;

/**
 * The walk both memorizer stages share: every page still lacking its output is shown to the
 * MEMORIZER with the memos written before it (read from {@code memos} at each step, so a stage that
 * appends to it grows the memory as it goes), and the reply is saved before the next page, so a
 * stopped job resumes at the first unfinished page. A page whose reply stays unusable after the
 * gateway's repair is left without its output and reported ({@link StageRun#itemFailed}); the walk
 * goes on with the next page and never comes back to it in this run, so a gap cannot hold the stage
 * up: the next run of the stage (a reindex without stages, appended sessions) tries it again.
 */
@Component
class PageMemorizer {

    private final LlmGateway gateway;
    private final Documents documents;
    private final MemorizerSettings settings;

    PageMemorizer(LlmGateway gateway, Documents documents, MemorizerSettings settings) {
        this.gateway = gateway;
        this.documents = documents;
        this.settings = settings;
    }

    <R> void forEachPending(
            StageRun run,
            List<MemorizerStore.Page> pages,
            Predicate<MemorizerStore.Page> finished,
            List<MemorizerStore.Memo> memos,
            String template,
            Class<R> replyType,
            BiConsumer<MemorizerStore.Page, R> save) {
        int done = (int) pages.stream().filter(finished).count();
        run.progress(done, pages.size());
        if (done == pages.size()) {
            return;
        }
        UUID documentId = run.document().id();
        String text = documents.text(documentId);
        LlmSession llm = gateway.open(CallScope.document(run.document().tenantId(), documentId), Budget.unlimited());
        for (MemorizerStore.Page page : pages) {
            if (finished.test(page)) {
                continue;
            }
            PageExcerpt excerpt = PageExcerpt.of(page.span().of(text), settings.maxPageTokens());
            R reply;
            try {
                reply = llm.structured(
                        Role.MEMORIZER,
                        template,
                        Map.of(
                                "memos", MemoryContext.before(memos, page.ordinal(), memoryBudget(excerpt)),
                                "pageNumber", page.ordinal(),
                                "pageNote", excerpt.note(),
                                "page", excerpt.text()),
                        replyType);
            } catch (UnusableReplyException unusable) {
                // this page stays without its output (a gap a later run tries again); the walk goes on
                run.itemFailed("page " + page.ordinal(), Failures.describe(unusable));
                continue;
            }
            save.accept(page, reply);
            run.progress(++done, pages.size());
        }
    }

    /** Tokens of earlier memos shown with a page: the configured amount, or less when the prompt has no room for it besides the page. */
    private int memoryBudget(PageExcerpt excerpt) {
        int room = gateway.contextLimit(Role.MEMORIZER).promptTokens()
                - TokenCounter.count(excerpt.text())
                - PROMPT_OVERHEAD;
        return Math.max(1000, Math.min(settings.contextTokens(), room));
    }

    /** The memorizer's instructions, labels and markup, with room to spare. */
    private static final int PROMPT_OVERHEAD = 1000;
}
