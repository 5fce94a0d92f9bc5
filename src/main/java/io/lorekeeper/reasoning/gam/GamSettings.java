package io.lorekeeper.reasoning.gam;

import java.util.List;
import java.util.Set;

import io.lorekeeper.reasoning.QuestionOptions;

/**
 * GAM's knobs, with the paper's defaults: three research rounds, five pages per search, all three
 * tools, and the integration handed on with extracted source snippets. {@code tools} and
 * {@code output} reproduce the paper's ablations.
 */
record GamSettings(int maxDepth, int pagesPerSearch, int maxPagesPerRound, List<String> tools, String output,
        int memoTokens, int pageTokens) {

    static final String KEYWORD = "keyword";
    static final String VECTOR = "vector";
    static final String PAGE = "page";
    static final int MAX_FOLLOW_UPS = 5;
    static final int MAX_PAGE_IDS = 5;

    private static final Set<String> OPTIONS = Set.of("maxDepth", "pagesPerSearch", "maxPagesPerRound", "tools", "output",
            "memoTokens", "pageTokens");

    static GamSettings of(QuestionOptions options) {
        options.allowOnly(OPTIONS);
        return new GamSettings(
                options.intValue("maxDepth", 3, 1, 10),
                options.intValue("pagesPerSearch", 5, 1, 20),
                options.intValue("maxPagesPerRound", 10, 1, 40),
                options.stringList("tools", List.of(KEYWORD, VECTOR, PAGE), Set.of(KEYWORD, VECTOR, PAGE)),
                options.stringValue("output", "snippets", Set.of("integration", "pages", "snippets")),
                options.intValue("memoTokens", 8000, 500, 200_000),
                options.intValue("pageTokens", 16000, 1000, 500_000));
    }

    boolean uses(String tool) {
        return tools.contains(tool);
    }
}
