package io.lorekeeper.gam;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.lorekeeper.document.search.PageText;
import io.lorekeeper.document.search.SearchHit;
import io.lorekeeper.llm.NumberedMarkup;
import io.lorekeeper.llm.PromptMarkup;
import io.lorekeeper.retrieval.Retriever;
import io.lorekeeper.text.Terms;
import io.lorekeeper.text.TokenCounter;

/**
 * What the answerer gets besides the notes (the paper's output formats): source snippets (the
 * chunks of the source pages that the searches hit, or that share most words with the notes),
 * whole source pages, or nothing. Source pages are those the notes cite, else all pages read.
 */
final class Excerpts {

    static final int PER_PAGE = 2;
    static final int MAX = 12;

    private Excerpts() {}

    static List<SearchHit> select(
            String output,
            Integration integration,
            Map<PageRef, PageSearch.Found> read,
            PageSearch search,
            Retriever retriever,
            String question,
            int pageTokens) {
        List<PageRef> sources = sources(integration, read);
        if (output.equals("pages")) {
            List<SearchHit> pages = new ArrayList<>();
            int used = 0;
            for (PageRef ref : sources) {
                PageText page = retriever.page(search.document(ref), ref.page()).orElse(null);
                if (page == null) {
                    continue;
                }
                int tokens = page.tokenCount();
                if (!pages.isEmpty() && used + tokens > pageTokens) {
                    break;
                }
                used += tokens;
                pages.add(new SearchHit(
                        page.documentId(),
                        page.firstChunk(),
                        page.ordinal(),
                        page.start(),
                        page.end(),
                        page.text(),
                        List.of(),
                        List.of(),
                        0));
            }
            return pages;
        }
        Set<String> wanted = new HashSet<>(Terms.of(question + " " + integration.render()));
        List<SearchHit> snippets = new ArrayList<>();
        for (PageRef ref : sources) {
            List<SearchHit> candidates = new ArrayList<>(read.get(ref).hits());
            if (candidates.size() < PER_PAGE) {
                retriever
                        .page(search.document(ref), ref.page())
                        .ifPresent(page -> candidates.addAll(
                                retriever.chunks(page.documentId(), page.firstChunk(), page.lastChunk())));
            }
            candidates.stream()
                    .collect(java.util.stream.Collectors.toMap(
                            SearchHit::key, h -> h, (a, b) -> a, java.util.LinkedHashMap::new))
                    .values()
                    .stream()
                    .sorted(Comparator.comparingLong((SearchHit h) -> -overlap(h, wanted)))
                    .limit(PER_PAGE)
                    .sorted(Comparator.comparingInt(SearchHit::chunkOrdinal))
                    .forEach(snippets::add);
            if (snippets.size() >= MAX) {
                break;
            }
        }
        return snippets.size() > MAX ? snippets.subList(0, MAX) : snippets;
    }

    static PromptMarkup render(List<SearchHit> excerpts, PageSearch search) {
        return NumberedMarkup.render(
                "excerpt",
                excerpts.stream()
                        .map(e -> NumberedMarkup.Block.of(
                                e.text(), Map.of("page", search.ref(e).label())))
                        .toList());
    }

    static int tokens(List<SearchHit> excerpts) {
        return excerpts.stream().mapToInt(e -> TokenCounter.count(e.text())).sum();
    }

    /** The pages the notes cite (among those read), or every page read when they cite none. */
    static List<PageRef> sources(Integration integration, Map<PageRef, PageSearch.Found> read) {
        Set<PageRef> cited = new LinkedHashSet<>();
        integration
                .facts()
                .forEach(f -> f.sources().stream().filter(read::containsKey).forEach(cited::add));
        return cited.isEmpty() ? List.copyOf(read.keySet()) : List.copyOf(cited);
    }

    private static long overlap(SearchHit hit, Set<String> wanted) {
        return Terms.of(hit.text()).stream().distinct().filter(wanted::contains).count();
    }
}
