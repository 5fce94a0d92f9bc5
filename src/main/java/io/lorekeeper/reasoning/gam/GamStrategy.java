package io.lorekeeper.reasoning.gam;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import org.springframework.stereotype.Component;

import io.lorekeeper.llm.BudgetExhaustedException;
import io.lorekeeper.llm.LlmGateway;
import io.lorekeeper.llm.LlmSession;
import io.lorekeeper.llm.PromptMarkup;
import io.lorekeeper.llm.Role;
import io.lorekeeper.llm.UnusableReplyException;
import io.lorekeeper.reasoning.AnswerParts;
import io.lorekeeper.reasoning.AnswerStrategy;
import io.lorekeeper.reasoning.Citation;
import io.lorekeeper.reasoning.QuestionContext;
import io.lorekeeper.reasoning.QuestionOptions;
import io.lorekeeper.reasoning.StrategyRequirements;
import io.lorekeeper.reasoning.StrategyResult;
import io.lorekeeper.retrieval.PageText;
import io.lorekeeper.retrieval.SearchHit;
import io.lorekeeper.text.Span;
import io.lorekeeper.text.TokenCounter;

/**
 * General Agentic Memory's researcher over the memorizer's memos and page store (seed
 * 004_1811736a72c205ce, section 2.2). Up to {@code maxDepth} rounds of: plan (information needs
 * and searches, from the memos and the notes so far) → search (keyword, vector and page-id tools
 * in parallel) → integrate (rewrite the notes with every page the round found, pages read in
 * earlier rounds included, keeping page sources) → reflect (enough? if not, at most five follow-up
 * requests that drive the next plan). Plan, integrate and reflect reason in a leading
 * {@code thinking} field before their JSON, as the paper's prompts think before they answer; that
 * reasoning is traced and never enters the notes. The answerer then writes the short answer from
 * the notes alone (the paper's default output), or from the notes and the source pages or snippets.
 */
@Component
class GamStrategy implements AnswerStrategy {

    /** Tokens a research prompt takes besides what is measured (instructions, tool list, schema, markup), with room to spare. */
    private static final int PROMPT_OVERHEAD = 1500;

    private final LlmGateway gateway;

    GamStrategy(LlmGateway gateway) {
        this.gateway = gateway;
    }

    @Override
    public String name() {
        return "gam";
    }

    @Override
    public StrategyRequirements requirements() {
        // page headers sharpen retrieval but the research loop runs without them
        return new StrategyRequirements(
                true,
                Set.of("memos"),
                Set.of("page-headers"),
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
        MemoBook memos = MemoBook.of(context.retriever().memos(context.documentIds()), context.documentIds());
        Function<String, Map<PageRef, Double>> similarity = request -> {
            Map<PageRef, Double> out = new LinkedHashMap<>();
            context.retriever()
                    .memoVector(context.documentIds(), request, memos.total())
                    .forEach(m -> out.put(
                            new PageRef(context.documentIds().indexOf(m.documentId()) + 1, m.pageOrdinal()),
                            m.score()));
            return out;
        };

        Integration integration = Integration.empty();
        Map<PageRef, PageSearch.Found> read = new LinkedHashMap<>();
        Map<PageRef, Span> pageSpans = new LinkedHashMap<>();
        Set<PageRef> memosShown = new LinkedHashSet<>();
        String request = context.question();
        boolean limited = false;
        try {
            for (int round = 1; round <= settings.maxDepth(); round++) {
                context.cancellation().throwIfCancelled();
                MemoBook.Shown shown = memos.select(request, memoBudget(settings, integration, request), similarity);
                memosShown.addAll(shown.refs());
                context.trace()
                        .record(
                                "memos",
                                Map.of(
                                        "round",
                                        round,
                                        "shown",
                                        shown.refs().size(),
                                        "total",
                                        memos.total(),
                                        "tokens",
                                        shown.tokens(),
                                        "totalTokens",
                                        memos.totalTokens()));
                ResearchPlan plan = llm.structured(
                        Role.PLANNER,
                        "gam/plan",
                        Map.of(
                                "memos",
                                shown.rendered(),
                                "integration",
                                integration.render(),
                                "request",
                                request,
                                "toolList",
                                toolList(settings),
                                "maxPages",
                                GamSettings.MAX_PAGE_IDS),
                        ResearchPlan.class);
                PageSearch.Result found = search.run(plan, settings, memosShown);
                context.trace()
                        .record(
                                "plan",
                                Map.of(
                                        "round",
                                        round,
                                        "request",
                                        request,
                                        "plan",
                                        plan,
                                        "rejectedPages",
                                        found.rejected().stream()
                                                .map(PageRef::label)
                                                .toList()));
                context.trace()
                        .record(
                                "search",
                                Map.of(
                                        "round",
                                        round,
                                        "searches",
                                        found.searches().stream()
                                                .map(s -> Map.of(
                                                        "tool",
                                                        s.tool(),
                                                        "query",
                                                        s.query(),
                                                        "pages",
                                                        s.pages().stream()
                                                                .map(PageRef::label)
                                                                .toList()))
                                                .toList()));
                // the paper integrates the union of the round's pages, including pages read before:
                // integration is lossy, and a later, sharper search may find a page's missed fact again
                List<PageSearch.Found> toRead = found.pages().stream()
                        .filter(p -> settings.reread() || !read.containsKey(p.ref()))
                        .limit(settings.maxPagesPerRound() == 0 ? Long.MAX_VALUE : settings.maxPagesPerRound())
                        .toList();
                Set<PageRef> readBefore = new HashSet<>(read.keySet());
                if (toRead.isEmpty()) {
                    context.trace()
                            .record(
                                    "integrate",
                                    Map.of("round", round, "skipped", "the searches found no page to read"));
                } else {
                    PageBundle pages =
                            pages(context, search, toRead, pageBudget(settings, integration, context.question()));
                    toRead.stream()
                            .filter(p -> pages.spans().containsKey(p.ref()))
                            .forEach(p -> read.put(p.ref(), p));
                    pages.spans().forEach(pageSpans::putIfAbsent);
                    integration = llm.structured(
                            Role.RESEARCHER,
                            "gam/integrate",
                            Map.of(
                                    "question",
                                    context.question(),
                                    "integration",
                                    integration.render(),
                                    "pages",
                                    pages.markup()),
                            Integration.class);
                    Map<String, Object> event = new LinkedHashMap<>();
                    event.put("round", round);
                    event.put("pagesRead", pages.labels());
                    event.put(
                            "pagesReadAgain",
                            pages.spans().keySet().stream()
                                    .filter(readBefore::contains)
                                    .map(PageRef::label)
                                    .toList());
                    event.put("pagesLeftOut", pages.leftOut());
                    event.put("pageTokens", pages.tokens());
                    event.put("integration", integration);
                    context.trace().record("integrate", event);
                }
                Reflection reflection = llm.structured(
                        Role.RESEARCHER,
                        "gam/reflect",
                        Map.of(
                                "question",
                                context.question(),
                                "integration",
                                integration.render(),
                                "maxFollowUps",
                                GamSettings.MAX_FOLLOW_UPS),
                        Reflection.class);
                List<String> followUps = reflection.followUps().stream()
                        .limit(GamSettings.MAX_FOLLOW_UPS)
                        .toList();
                context.trace()
                        .record(
                                "reflect",
                                Map.of(
                                        "round",
                                        round,
                                        "enough",
                                        reflection.enough(),
                                        "missing",
                                        reflection.missing() == null ? "" : reflection.missing(),
                                        "followUps",
                                        followUps,
                                        "thinking",
                                        reflection.thinking() == null ? "" : reflection.thinking()));
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
        return answer(context, settings, search, integration, read, pageSpans, limited);
    }

    private StrategyResult answer(
            QuestionContext context,
            GamSettings settings,
            PageSearch search,
            Integration integration,
            Map<PageRef, PageSearch.Found> read,
            Map<PageRef, Span> pageSpans,
            boolean limited) {
        boolean shown = !settings.output().equals(GamSettings.INTEGRATION);
        int excerptBudget = settings.pageTokens() > 0
                ? settings.pageTokens()
                : Math.max(
                        1000,
                        gateway.contextLimit(Role.ANSWERER).promptTokens()
                                - TokenCounter.count(integration.render())
                                - PROMPT_OVERHEAD);
        List<SearchHit> excerpts = read.isEmpty() || !shown
                ? List.of()
                : Excerpts.select(
                        settings.output(),
                        integration,
                        read,
                        search,
                        context.retriever(),
                        context.question(),
                        excerptBudget);
        // with the integration alone (the paper's default), the answerer's context is the notes, built from the pages
        // they cite
        List<Span> notesRestOn = Excerpts.sources(integration, read).stream()
                .map(pageSpans::get)
                .filter(java.util.Objects::nonNull)
                .toList();
        List<Map<String, Object>> spans = new ArrayList<>();
        if (shown) {
            excerpts.forEach(e -> spans.add(Map.of("documentId", e.documentId(), "start", e.start(), "end", e.end())));
        } else {
            Excerpts.sources(integration, read).forEach(ref -> {
                Span span = pageSpans.get(ref);
                if (span != null) {
                    spans.add(Map.of("documentId", search.document(ref), "start", span.start(), "end", span.end()));
                }
            });
        }
        context.trace()
                .record(
                        "context",
                        Map.of(
                                "output",
                                settings.output(),
                                "integrationTokens",
                                TokenCounter.count(integration.render()),
                                "excerptTokens",
                                shown ? Excerpts.tokens(excerpts) : 0,
                                "pagesBehindNotes",
                                notesRestOn.size(),
                                "spans",
                                spans));
        GamAnswer reply;
        try {
            reply = context.llm()
                    .structuredOrText(
                            Role.ANSWERER,
                            "gam/answer",
                            answerVariables(
                                    context,
                                    integration,
                                    shown ? Excerpts.render(excerpts, search) : PromptMarkup.of("")),
                            GamAnswer.class,
                            GamAnswer::plainText);
        } catch (BudgetExhaustedException spent) {
            context.trace().record("budget", Map.of("reason", spent.getMessage(), "phase", "answer"));
            return notesAsAnswer(
                    integration, supporting(context, settings, search, integration, read, context.question()), true);
        } catch (UnusableReplyException unusable) {
            context.trace().record("step-failed", Map.of("phase", "answer", "reason", unusable.getMessage()));
            return notesAsAnswer(
                    integration, supporting(context, settings, search, integration, read, context.question()), limited);
        }
        List<Citation> citations = new ArrayList<>();
        if (shown) {
            for (GamAnswer.Evidence evidence : reply.evidence()) {
                citations.add(AnswerParts.quotedIn(excerpts, evidence.excerpt() - 1, evidence.quote())
                        .citation());
            }
        } else {
            // the answerer saw only the notes: cite the chunks of the pages behind them that share most words with the
            // answer
            supporting(context, settings, search, integration, read, context.question() + " " + reply.answer())
                    .forEach(e -> citations.add(Citation.of(e.documentId(), e.start(), e.end(), e.text())));
        }
        Integer choice = AnswerParts.validChoice(context, reply.choice());
        String answer = choice != null ? context.choices().get(choice) : reply.answer();
        context.trace().record("answer", Map.of("answer", answer, "confidence", reply.confidence()));
        return new StrategyResult(answer, StrategyResult.GENERATED, citations, reply.confidence(), choice, limited);
    }

    /** At most three chunks of the pages behind the notes, those sharing most words with {@code wanted} and the notes. */
    private static List<SearchHit> supporting(
            QuestionContext context,
            GamSettings settings,
            PageSearch search,
            Integration integration,
            Map<PageRef, PageSearch.Found> read,
            String wanted) {
        if (read.isEmpty()) {
            return List.of();
        }
        List<SearchHit> snippets =
                Excerpts.select("snippets", integration, read, search, context.retriever(), wanted, Integer.MAX_VALUE);
        return snippets.size() > 3 ? snippets.subList(0, 3) : snippets;
    }

    /** The best answer without the answerer: the notes themselves, backed by the excerpts they rest on. */
    private static StrategyResult notesAsAnswer(Integration integration, List<SearchHit> excerpts, boolean limited) {
        List<Citation> citations = excerpts.stream()
                .limit(3)
                .map(e -> Citation.of(e.documentId(), e.start(), e.end(), e.text()))
                .toList();
        return new StrategyResult(integration.summary(), StrategyResult.GENERATED, citations, 0.0, null, limited);
    }

    private static Map<String, Object> answerVariables(
            QuestionContext context, Integration integration, PromptMarkup excerpts) {
        Map<String, Object> vars = new LinkedHashMap<>(AnswerParts.choiceVariables(context));
        vars.put("integration", integration.render());
        vars.put("excerpts", excerpts);
        vars.put("question", context.question());
        return vars;
    }

    private record PageBundle(
            PromptMarkup markup, List<String> labels, Map<PageRef, Span> spans, int tokens, List<String> leftOut) {}

    /**
     * The round's pages as tagged text, each with its header, ranked as the search merged them
     * and within the token budget; those that do not fit are left out and named in the trace.
     */
    private static PageBundle pages(
            QuestionContext context, PageSearch search, List<PageSearch.Found> pages, int budget) {
        StringBuilder out = new StringBuilder();
        List<String> labels = new ArrayList<>();
        List<String> leftOut = new ArrayList<>();
        Map<PageRef, Span> spans = new LinkedHashMap<>();
        int used = 0;
        for (PageSearch.Found found : pages) {
            PageText page = context.retriever()
                    .page(search.document(found.ref()), found.ref().page())
                    .orElse(null);
            if (page == null) {
                continue;
            }
            if (!labels.isEmpty() && used + page.tokenCount() > budget) {
                leftOut.add(found.ref().label());
                continue;
            }
            used += page.tokenCount();
            labels.add(found.ref().label());
            spans.put(found.ref(), new Span(page.start(), page.end()));
            out.append("<page ref=\"").append(found.ref().label()).append("\">\n");
            if (page.header() != null && !page.header().isBlank()) {
                out.append("(context: ")
                        .append(PromptMarkup.data(page.header().strip()))
                        .append(")\n");
            }
            out.append(PromptMarkup.data(page.text())).append("\n</page>\n\n");
        }
        return new PageBundle(PromptMarkup.of(out.toString()), labels, spans, used, leftOut);
    }

    /** Tokens of memos the planner may see this round: the cap asked for, or what its context window leaves. */
    private int memoBudget(GamSettings settings, Integration integration, String request) {
        if (settings.memoTokens() > 0) {
            return settings.memoTokens();
        }
        return Math.max(
                500,
                gateway.contextLimit(Role.PLANNER).promptTokens()
                        - TokenCounter.count(integration.render())
                        - TokenCounter.count(request)
                        - PROMPT_OVERHEAD);
    }

    /** Tokens of pages one integration call may read: {@code roundTokens}, or what the researcher's context window leaves. */
    private int pageBudget(GamSettings settings, Integration integration, String question) {
        if (settings.roundTokens() > 0) {
            return settings.roundTokens();
        }
        return Math.max(
                2048,
                gateway.contextLimit(Role.RESEARCHER).promptTokens()
                        - TokenCounter.count(integration.render())
                        - TokenCounter.count(question)
                        - PROMPT_OVERHEAD);
    }

    private static String toolList(GamSettings settings) {
        List<String> tools = new ArrayList<>();
        if (settings.uses(GamSettings.KEYWORD)) {
            tools.add("- keywordQueries: BM25 keyword search over the pages");
        }
        if (settings.uses(GamSettings.VECTOR) && settings.uses(GamSettings.MEMO)) {
            tools.add(
                    "- vectorQueries: semantic (embedding) search over the pages, and over the memos (finding the pages they describe)");
        } else if (settings.uses(GamSettings.VECTOR)) {
            tools.add("- vectorQueries: semantic (embedding) search over the pages");
        } else if (settings.uses(GamSettings.MEMO)) {
            tools.add("- vectorQueries: semantic (embedding) search over the memos, finding the pages they describe");
        }
        if (settings.uses(GamSettings.PAGE)) {
            tools.add("- pages: read whole pages by reference (e.g. {\"doc\": 1, \"page\": 12} for D1-P12)");
        }
        return String.join("\n", tools);
    }
}
