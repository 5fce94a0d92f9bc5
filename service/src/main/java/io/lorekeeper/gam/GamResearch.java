package io.lorekeeper.gam;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import io.lorekeeper.document.search.PageText;
import io.lorekeeper.llm.BudgetExhaustedException;
import io.lorekeeper.llm.LlmGateway;
import io.lorekeeper.llm.PromptMarkup;
import io.lorekeeper.llm.Role;
import io.lorekeeper.llm.UnusableReplyException;
import io.lorekeeper.strategy.BudgetGate;
import io.lorekeeper.strategy.QuestionContext;
import io.lorekeeper.strategy.StepEvent;
import io.lorekeeper.text.Span;
import io.lorekeeper.text.TokenCounter;

/**
 * GAM's research loop for one question (seed 004, section 2.2): up to {@code maxDepth} rounds of
 * plan → search → integrate → reflect. Each round works on its request r′: the question in the first
 * round, then the question with the follow-ups of the previous reflection; the planner, the
 * integrator and the reflector all read it.
 *
 * <p>Every step degrades on its own: a plan with nothing usable is replaced by the request itself as
 * a keyword and a vector query, an integration with nothing usable keeps the notes as they were (its
 * pages are still evidence for a last resort), and a reflection with nothing usable ends the research
 * with the notes so far. Each such step is traced as {@code step.failed}. Before each step the loop
 * checks that the step fits the budget before the answer's reserve; when it does not (or the question
 * ran out of time), the research stops, budget-limited, and the answer is written from what it has.
 */
final class GamResearch {

    /** Tokens a research prompt takes besides what is measured (instructions, tool list, schema, markup), with room to spare. */
    static final int PROMPT_OVERHEAD = 1500;

    private final QuestionContext context;
    private final GamSettings settings;
    private final LlmGateway gateway;
    private final PageSearch search;
    private final MemoBook memos;
    private final Function<String, Map<PageRef, Double>> similarity;

    private Integration integration = Integration.empty();
    /** Pages integrated into the notes. */
    private final Map<PageRef, PageSearch.Found> read = new LinkedHashMap<>();
    /** Pages fetched for an integration, whether or not it succeeded: evidence for a last resort. */
    private final Map<PageRef, PageSearch.Found> fetched = new LinkedHashMap<>();

    private final Map<PageRef, Span> pageSpans = new LinkedHashMap<>();
    private final Set<PageRef> memosShown = new LinkedHashSet<>();
    private String request;
    private boolean limited;

    GamResearch(QuestionContext context, GamSettings settings, LlmGateway gateway, PageSearch search) {
        this.context = context;
        this.settings = settings;
        this.gateway = gateway;
        this.search = search;
        this.memos = MemoBook.of(context.retriever().memos(context.documentIds()), context.documentIds());
        this.similarity = wanted -> {
            Map<PageRef, Double> out = new LinkedHashMap<>();
            context.retriever()
                    .memoVector(context.documentIds(), wanted, memos.total())
                    .forEach(m -> out.put(
                            new PageRef(context.documentIds().indexOf(m.documentId()) + 1, m.pageOrdinal()),
                            m.score()));
            return out;
        };
        this.request = context.question();
    }

    /** Runs the rounds; afterwards the notes, the pages read and whether the budget stopped it are known. */
    GamResearch run() {
        try {
            for (int round = 1; round <= settings.maxDepth(); round++) {
                if (!round(round)) {
                    break;
                }
            }
        } catch (BudgetExhaustedException spent) {
            // a call refused all the same (tokens spent by a long reply, say): the answer is written from the notes
            stop("research", spent.getMessage());
        }
        return this;
    }

    /** One round; false when the research ends here. */
    private boolean round(int round) {
        if (!mayStart("plan")) {
            return false;
        }
        ResearchPlan plan = plan(round);
        PageSearch.Result found = search(round, plan);
        if (!integrate(round, found)) {
            return false;
        }
        if (!mayStart("reflect")) {
            return false;
        }
        Reflection reflection = reflect(round);
        if (reflection == null) {
            return false;
        }
        List<String> followUps = followUps(reflection);
        if (reflection.enough() || followUps.isEmpty()) {
            return false;
        }
        request = context.question() + "\nStill missing:\n- " + String.join("\n- ", followUps);
        return true;
    }

    /** Whether a one-call step can start and finish before the answer's reserve; if not, the research stops. */
    private boolean mayStart(String step) {
        if (BudgetGate.of(context).mayStart(step, null, 1)) {
            return true;
        }
        limited = true;
        return false;
    }

    private void stop(String step, String reason) {
        limited = true;
        context.trace().record(new StepEvent.BudgetSpent(step, reason));
    }

    private void failed(String step, int round, UnusableReplyException unusable) {
        context.trace().record(new StepEvent.Failed(step, round, unusable.getMessage()));
    }

    // ---------------------------------------------------------------- plan

    /** The planner's searches for this round's request; the request itself as the searches when its reply is unusable. */
    private ResearchPlan plan(int round) {
        MemoBook.Shown shown = memos.select(request, memoBudget(), similarity);
        memosShown.addAll(shown.refs());
        context.trace()
                .record(new GamEvent.Memos(
                        round, shown.refs().size(), memos.total(), shown.tokens(), memos.totalTokens()));
        Map<String, Object> vars = new LinkedHashMap<>();
        vars.put("memos", shown.rendered());
        // The paper's planner reads the request and the memory; the running notes are an option.
        vars.put("notesThinking", settings.plannerNotes() ? "what the notes already settle, " : "");
        vars.put(
                "notes",
                PromptMarkup.of(
                        settings.plannerNotes()
                                ? "<notes>\n" + PromptMarkup.data(integration.render()) + "\n</notes>\n\n"
                                : ""));
        vars.put("request", request);
        vars.put("toolList", toolList(settings));
        vars.put("maxPages", GamSettings.MAX_PAGE_IDS);
        vars.put("maxQueries", GamSettings.MAX_QUERIES);
        try {
            return context.llm().structured(Role.PLANNER, "gam/plan", vars, ResearchPlan.class);
        } catch (UnusableReplyException unusable) {
            failed("plan", round, unusable);
            return ResearchPlan.ofRequest(request);
        }
    }

    // ---------------------------------------------------------------- search

    private PageSearch.Result search(int round, ResearchPlan plan) {
        PageSearch.Result found = search.run(plan, settings, memosShown);
        context.trace().record(new GamEvent.Plan(round, request, plan, labels(found.rejected())));
        context.trace()
                .record(new GamEvent.Search(
                        round,
                        found.searches().stream()
                                .map(s -> new GamEvent.Search.Found(s.tool(), s.query(), labels(s.pages())))
                                .toList()));
        return found;
    }

    // ---------------------------------------------------------------- integrate

    /**
     * Rewrites the notes with the round's pages. The paper integrates the union of the round's pages,
     * including pages read before: integration is lossy, and a later, sharper search may find a page's
     * missed fact again. False when the budget stopped the research before the call.
     */
    private boolean integrate(int round, PageSearch.Result found) {
        List<PageSearch.Found> toRead = found.pages().stream()
                .filter(p -> settings.reread() || !read.containsKey(p.ref()))
                .limit(settings.maxPagesPerRound() == 0 ? Long.MAX_VALUE : settings.maxPagesPerRound())
                .toList();
        if (toRead.isEmpty()) {
            context.trace().record(GamEvent.Integrate.skipped(round, "the searches found no page to read"));
            return true;
        }
        if (!mayStart("integrate")) {
            return false;
        }
        Set<PageRef> readBefore = new HashSet<>(read.keySet());
        PageBundle pages = pages(toRead, pageBudget());
        toRead.stream().filter(p -> pages.spans().containsKey(p.ref())).forEach(p -> fetched.put(p.ref(), p));
        pages.spans().forEach(pageSpans::putIfAbsent);
        Map<String, Object> vars = new LinkedHashMap<>();
        vars.put("request", request);
        vars.put("integration", integration.render());
        vars.put("pages", pages.markup());
        vars.put("maxFacts", GamSettings.MAX_FACTS);
        vars.put(
                "dateRule",
                settings.resolveDates()
                        ? " Resolve relative dates (\"yesterday\", \"last week\") against the date of the page they"
                                + " come from and say so."
                        : "");
        try {
            integration = context.llm().structured(Role.RESEARCHER, "gam/integrate", vars, Integration.class);
        } catch (UnusableReplyException unusable) {
            // the notes stay as they were; the pages are not counted as read, so a later round may integrate them
            failed("integrate", round, unusable);
            return true;
        }
        toRead.stream().filter(p -> pages.spans().containsKey(p.ref())).forEach(p -> read.put(p.ref(), p));
        context.trace()
                .record(new GamEvent.Integrate(
                        round,
                        null,
                        pages.labels(),
                        labels(pages.spans().keySet().stream()
                                .filter(readBefore::contains)
                                .toList()),
                        pages.leftOut(),
                        pages.tokens(),
                        integration));
        return true;
    }

    // ---------------------------------------------------------------- reflect

    /** Whether the notes answer the round's request; null when the reply had nothing usable (the research ends). */
    private Reflection reflect(int round) {
        Map<String, Object> vars = new LinkedHashMap<>();
        vars.put("request", request);
        vars.put("integration", integration.render());
        vars.put("maxFollowUps", GamSettings.MAX_FOLLOW_UPS);
        Reflection reflection;
        try {
            reflection = context.llm().structured(Role.RESEARCHER, "gam/reflect", vars, Reflection.class);
        } catch (UnusableReplyException unusable) {
            failed("reflect", round, unusable);
            return null;
        }
        context.trace()
                .record(new GamEvent.Reflect(
                        round,
                        reflection.enough(),
                        reflection.missing() == null ? "" : reflection.missing(),
                        followUps(reflection),
                        reflection.thinking() == null ? "" : reflection.thinking()));
        return reflection;
    }

    private static List<String> followUps(Reflection reflection) {
        return reflection.followUps().stream()
                .filter(f -> f != null && !f.isBlank())
                .limit(GamSettings.MAX_FOLLOW_UPS)
                .toList();
    }

    private static List<String> labels(java.util.Collection<PageRef> pages) {
        return pages.stream().map(PageRef::label).toList();
    }

    // ---------------------------------------------------------------- what the research leaves

    Integration integration() {
        return integration;
    }

    Map<PageRef, PageSearch.Found> read() {
        return read;
    }

    /** Every page fetched for an integration, integrated or not. */
    Map<PageRef, PageSearch.Found> fetched() {
        return fetched;
    }

    Map<PageRef, Span> pageSpans() {
        return pageSpans;
    }

    boolean limited() {
        return limited;
    }

    // ---------------------------------------------------------------- pages and budgets

    record PageBundle(
            PromptMarkup markup, List<String> labels, Map<PageRef, Span> spans, int tokens, List<String> leftOut) {}

    /**
     * The round's pages as tagged text, each with its header, ranked as the search merged them
     * and within the token budget; those that do not fit are left out and named in the trace.
     */
    private PageBundle pages(List<PageSearch.Found> pages, int budget) {
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
    private int memoBudget() {
        return budget(settings.memoTokens(), 500, Role.PLANNER);
    }

    /** Tokens of pages one integration call may read: {@code roundTokens}, or what the researcher's context window leaves. */
    private int pageBudget() {
        return budget(settings.roundTokens(), 2048, Role.RESEARCHER);
    }

    /**
     * The tokens asked for ({@code asked} above 0), or what the role's context window leaves beside the
     * notes, the request and the prompt, but never less than {@code floor}.
     */
    private int budget(int asked, int floor, Role role) {
        if (asked > 0) {
            return asked;
        }
        return Math.max(
                floor,
                gateway.contextLimit(role).promptTokens()
                        - TokenCounter.count(integration.render())
                        - TokenCounter.count(request)
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
