package io.lorekeeper.gam;

import java.util.List;
import java.util.Set;

import io.lorekeeper.retrieval.SearchMode;
import io.lorekeeper.strategy.QuestionOptions;

/**
 * GAM's knobs, with the paper's defaults (seed 004, section 3.1 and Table 4): three research
 * rounds, five pages per search, the three tools (keyword, vector, page id), every page a round
 * retrieves integrated again (no cap but the researcher's context window), the planner shown the
 * whole memory when it fits, and the integration alone handed to the answerer. {@code tools} and
 * {@code output} reproduce the paper's ablations; the rest are this service's extensions.
 *
 * @param maxPagesPerRound  at most this many pages integrated per round, ranked by how many searches found them; 0: no cap
 * @param tools             the planner's tools; {@code memo} (not the paper's) also runs the vector queries over the memos
 * @param output            {@code integration} (the paper's default), {@code pages} or {@code snippets} (the integration with
 *                          the source pages, or with chunks of them picked by word overlap)
 * @param memoTokens        at most this many tokens of memos shown to the planner; 0: as many as its context window holds
 * @param pageTokens        at most this many tokens of source pages handed to the answerer ({@code output=pages}); 0: as many
 *                          as the answerer's context holds
 * @param roundTokens       at most this many tokens of pages per integration call; 0: as many as the researcher's context holds
 * @param reread            integrate a page found again in a later round again (the paper integrates every round's union)
 * @param searchPerQuery    each query returns its own best pages (this service's earlier reading, up to
 *                          {@code pagesPerSearch} × queries pages a round); by default, as the authors' code reads
 *                          the paper, a round's keyword queries are one search and its vector queries are fused
 *                          into one ranking, each bringing {@code pagesPerSearch} pages (with the page ids, at most
 *                          15 pages a round)
 * @param resolveDates      the integrator turns relative dates into dates against their page's date (not in the
 *                          paper)
 * @param plannerNotes      the planner also reads the running notes (not in the paper, whose planner reads the
 *                          request and the memory)
 */
record GamSettings(
        int maxDepth,
        int pagesPerSearch,
        int maxPagesPerRound,
        List<String> tools,
        String output,
        int memoTokens,
        int pageTokens,
        int roundTokens,
        boolean reread,
        boolean searchPerQuery,
        boolean resolveDates,
        boolean plannerNotes) {

    /** GAM's keyword and vector tools are the retriever's search modes of those names. */
    static final String KEYWORD = SearchMode.KEYWORD.wireName();

    static final String VECTOR = SearchMode.VECTOR.wireName();
    static final String PAGE = "page";
    static final String MEMO = "memo";
    static final String INTEGRATION = "integration";
    static final int MAX_FOLLOW_UPS = 5;
    static final int MAX_PAGE_IDS = 5;
    /** Queries per tool the planner is asked for: its plan stays well inside the planner's output limit. */
    static final int MAX_QUERIES = 5;
    /** Facts the integrator's notes may hold: the rewritten notes stay well inside the researcher's output limit. */
    static final int MAX_FACTS = 30;

    private static final Set<String> OPTIONS = Set.of(
            "maxDepth",
            "pagesPerSearch",
            "maxPagesPerRound",
            "tools",
            "output",
            "memoTokens",
            "pageTokens",
            "roundTokens",
            "reread",
            "searchPerQuery",
            "resolveDates",
            "plannerNotes");

    static GamSettings of(QuestionOptions options) {
        options.allowOnly(OPTIONS);
        return new GamSettings(
                options.intValue("maxDepth", 3, 1, 10),
                options.intValue("pagesPerSearch", 5, 1, 20),
                options.intValue("maxPagesPerRound", 0, 0, 100),
                options.stringList("tools", List.of(KEYWORD, VECTOR, PAGE), Set.of(KEYWORD, VECTOR, PAGE, MEMO)),
                options.stringValue("output", INTEGRATION, Set.of(INTEGRATION, "pages", "snippets")),
                options.intValue("memoTokens", 0, 0, 1_000_000),
                options.intValue("pageTokens", 0, 0, 1_000_000),
                options.intValue("roundTokens", 0, 0, 1_000_000),
                options.booleanValue("reread", true),
                options.booleanValue("searchPerQuery", false),
                options.booleanValue("resolveDates", false),
                options.booleanValue("plannerNotes", false));
    }

    boolean uses(String tool) {
        return tools.contains(tool);
    }
}
