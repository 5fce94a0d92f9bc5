package io.lorekeeper.reasoning.gam;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.springframework.stereotype.Component;

import io.lorekeeper.llm.BudgetExhaustedException;
import io.lorekeeper.llm.UnusableReplyException;
import io.lorekeeper.llm.LlmSession;
import io.lorekeeper.llm.PromptMarkup;
import io.lorekeeper.llm.Role;
import io.lorekeeper.reasoning.AnswerParts;
import io.lorekeeper.reasoning.AnswerStrategy;
import io.lorekeeper.reasoning.Citation;
import io.lorekeeper.reasoning.QuestionContext;
import io.lorekeeper.reasoning.QuestionOptions;
import io.lorekeeper.reasoning.StrategyRequirements;
import io.lorekeeper.reasoning.StrategyResult;
import io.lorekeeper.retrieval.PageText;
import io.lorekeeper.retrieval.SearchHit;
import io.lorekeeper.text.TokenCounter;

/**
 * General Agentic Memory's researcher over the memorizer's memos and page store (seed
 * 004_1811736a72c205ce, section 2.2). Up to {@code maxDepth} rounds of: plan (information needs
 * and searches, from the memos and the notes so far) → search (keyword, vector and page-id tools
 * in parallel) → integrate (rewrite the notes with the new pages, keeping page sources) → reflect
 * (enough? if not, at most five follow-up requests that drive the next plan). The answerer then
 * writes the short answer from the notes and source excerpts.
 */
@Component
class GamStrategy implements AnswerStrategy {

    @Override
    public String name() {
        return "gam";
    }

    @Override
    public StrategyRequirements requirements() {
        // page headers sharpen retrieval but the research loop runs without them
        return new StrategyRequirements(true, Set.of("memos"), Set.of("page-headers"),
                "GAM: memos at ingestion, then plan-search-integrate-reflect research rounds over the page store");
    }

    @Override
    public void validate(QuestionOptions options) {
        GamSettings.of(options);
    }

    @Override
    public StrategyResult answer(QuestionContext context) {
        GamSettings settings = GamSettings.of(context.options());
        LlmSession llm = context.llm();
        PageSearch search = new PageSearch(context.retriever(), context.documentIds());
        MemoBook memos = MemoBook.of(context.retriever().memos(context.documentIds()), context.documentIds(), context.question(),
                settings.memoTokens());
        context.trace().record("memos", Map.of("shown", memos.shown(), "total", memos.total()));

        Integration integration = Integration.empty();
        Map<PageRef, PageSearch.Found> read = new LinkedHashMap<>();
        String request = context.question();
        boolean limited = false;
        try {
            for (int round = 1; round <= settings.maxDepth(); round++) {
                context.cancellation().throwIfCancelled();
                ResearchPlan plan = llm.structured(Role.PLANNER, "gam/plan", Map.of("memos", memos.render(),
                        "integration", integration.render(), "request", request, "toolList", toolList(settings),
                        "maxPages", GamSettings.MAX_PAGE_IDS), ResearchPlan.class);
                PageSearch.Result found = search.run(plan, settings, memos.justified());
                context.trace().record("plan", Map.of("round", round, "request", request, "plan", plan,
                        "rejectedPages", found.rejected().stream().map(PageRef::label).toList()));
                context.trace().record("search", Map.of("round", round, "searches", found.searches().stream()
                        .map(s -> Map.of("tool", s.tool(), "query", s.query(), "pages", s.pages().stream().map(PageRef::label).toList()))
                        .toList()));
                List<PageSearch.Found> fresh = found.pages().stream().filter(p -> !read.containsKey(p.ref())).toList();
                fresh.forEach(p -> read.put(p.ref(), p));
                PageBundle pages = pages(context, search, fresh, settings.pageTokens());
                integration = llm.structured(Role.RESEARCHER, "gam/integrate", Map.of("question", context.question(),
                        "integration", integration.render(), "pages", pages.markup()), Integration.class);
                context.trace().record("integrate", Map.of("round", round, "pagesRead", pages.labels(),
                        "pageTokens", pages.tokens(), "integration", integration));
                Reflection reflection = llm.structured(Role.RESEARCHER, "gam/reflect", Map.of("question", context.question(),
                        "integration", integration.render(), "maxFollowUps", GamSettings.MAX_FOLLOW_UPS), Reflection.class);
                List<String> followUps = reflection.followUps().stream().limit(GamSettings.MAX_FOLLOW_UPS).toList();
                context.trace().record("reflect", Map.of("round", round, "enough", reflection.enough(),
                        "missing", reflection.missing() == null ? "" : reflection.missing(), "followUps", followUps));
                if (reflection.enough() || followUps.isEmpty()) {
                    break;
                }
                request = context.question() + "\nStill missing:\n- " + String.join("\n- ", followUps);
            }
        } catch (BudgetExhaustedException spent) {
            limited = true;
            context.trace().record("budget", Map.of("reason", spent.getMessage(), "phase", "research"));
        } catch (UnusableReplyException unusable) {
            // a reply with nothing usable ends the research; the answer is written from the notes so far
            context.trace().record("step-failed", Map.of("phase", "research", "reason", unusable.getMessage()));
        }
        return answer(context, settings, search, integration, read, limited);
    }

    private StrategyResult answer(QuestionContext context, GamSettings settings, PageSearch search, Integration integration,
            Map<PageRef, PageSearch.Found> read, boolean limited) {
        List<SearchHit> excerpts = read.isEmpty() ? List.of()
                : Excerpts.select(settings.output(), integration, read, search, context.retriever(), context.question(), settings.pageTokens());
        boolean shown = !settings.output().equals("integration");
        context.trace().record("context", Map.of("output", settings.output(), "integrationTokens", TokenCounter.count(integration.render()),
                "excerptTokens", shown ? Excerpts.tokens(excerpts) : 0,
                "spans", excerpts.stream().map(e -> Map.of("documentId", e.documentId(), "start", e.start(), "end", e.end())).toList()));
        GamAnswer reply;
        try {
            reply = context.llm().structuredOrText(Role.ANSWERER, "gam/answer", answerVariables(context, integration,
                    shown ? Excerpts.render(excerpts, search) : PromptMarkup.of("")), GamAnswer.class, GamAnswer::plainText);
        } catch (BudgetExhaustedException spent) {
            context.trace().record("budget", Map.of("reason", spent.getMessage(), "phase", "answer"));
            return notesAsAnswer(integration, excerpts, true);
        } catch (UnusableReplyException unusable) {
            context.trace().record("step-failed", Map.of("phase", "answer", "reason", unusable.getMessage()));
            return notesAsAnswer(integration, excerpts, limited);
        }
        List<Citation> citations = new ArrayList<>();
        if (shown) {
            for (GamAnswer.Evidence evidence : reply.evidence()) {
                citations.add(AnswerParts.quotedIn(excerpts, evidence.excerpt() - 1, evidence.quote()).citation());
            }
        } else {
            // The answerer saw only the notes; cite the snippets of the pages the notes rest on.
            excerpts.stream().limit(3).forEach(e -> citations.add(Citation.of(e.documentId(), e.start(), e.end(), e.text())));
        }
        Integer choice = AnswerParts.validChoice(context, reply.choice());
        String answer = choice != null ? context.choices().get(choice) : reply.answer();
        context.trace().record("answer", Map.of("answer", answer, "confidence", reply.confidence()));
        return new StrategyResult(answer, StrategyResult.GENERATED, citations, reply.confidence(), choice, limited);
    }

    /** The best answer without the answerer: the notes themselves, backed by the excerpts they rest on. */
    private static StrategyResult notesAsAnswer(Integration integration, List<SearchHit> excerpts, boolean limited) {
        List<Citation> citations = excerpts.stream().limit(3).map(e -> Citation.of(e.documentId(), e.start(), e.end(), e.text())).toList();
        return new StrategyResult(integration.summary(), StrategyResult.GENERATED, citations, 0.0, null, limited);
    }

    private static Map<String, Object> answerVariables(QuestionContext context, Integration integration, PromptMarkup excerpts) {
        Map<String, Object> vars = new LinkedHashMap<>(AnswerParts.choiceVariables(context));
        vars.put("integration", integration.render());
        vars.put("excerpts", excerpts);
        vars.put("question", context.question());
        return vars;
    }

    private record PageBundle(PromptMarkup markup, List<String> labels, int tokens) {
    }

    /** The new pages as tagged text, with the memorizer's header, within the token budget. */
    private static PageBundle pages(QuestionContext context, PageSearch search, List<PageSearch.Found> pages, int budget) {
        StringBuilder out = new StringBuilder();
        List<String> labels = new ArrayList<>();
        int used = 0;
        for (PageSearch.Found found : pages) {
            PageText page = context.retriever().page(search.document(found.ref()), found.ref().page()).orElse(null);
            if (page == null) {
                continue;
            }
            if (!labels.isEmpty() && used + page.tokenCount() > budget) {
                break;
            }
            used += page.tokenCount();
            labels.add(found.ref().label());
            out.append("<page ref=\"").append(found.ref().label()).append("\">\n");
            if (page.header() != null && !page.header().isBlank()) {
                out.append("(context: ").append(PromptMarkup.data(page.header().strip())).append(")\n");
            }
            out.append(PromptMarkup.data(page.text())).append("\n</page>\n\n");
        }
        return new PageBundle(PromptMarkup.of(out.isEmpty() ? "(no new pages were found)" : out.toString()), labels, used);
    }

    private static String toolList(GamSettings settings) {
        List<String> tools = new ArrayList<>();
        if (settings.uses(GamSettings.KEYWORD)) {
            tools.add("- keywordQueries: BM25 keyword search over the pages");
        }
        if (settings.uses(GamSettings.VECTOR)) {
            tools.add("- vectorQueries: semantic (embedding) search over the pages");
        }
        if (settings.uses(GamSettings.PAGE)) {
            tools.add("- pages: read whole pages by reference (e.g. {\"doc\": 1, \"page\": 12} for D1-P12)");
        }
        return String.join("\n", tools);
    }
}
