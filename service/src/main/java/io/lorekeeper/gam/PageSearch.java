package io.lorekeeper.gam;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

import io.lorekeeper.document.search.SearchHit;
import io.lorekeeper.retrieval.Retriever;
import io.micrometer.context.ContextExecutorService;
import io.micrometer.context.ContextSnapshotFactory;

/**
 * Runs one round's search plan: every keyword and vector query in parallel, each returning its
 * best {@code pagesPerSearch} pages (chunk hits grouped by page; with the {@code memo} tool, the
 * vector queries also rank the memos), plus the pages asked for by reference. Page references are
 * honoured only when the planner was shown the page's memo, in this round or an earlier one.
 */
final class PageSearch {

    record Search(String tool, String query, List<PageRef> pages) {}

    /** A page to read, with the chunk hits that led to it (none for pages asked for by reference). */
    record Found(PageRef ref, int votes, int bestRank, List<SearchHit> hits) {}

    record Result(List<Search> searches, List<Found> pages, List<PageRef> rejected) {}

    private final Retriever retriever;
    private final List<UUID> documents;

    PageSearch(Retriever retriever, List<UUID> documents) {
        this.retriever = retriever;
        this.documents = documents;
    }

    /**
     * One round's searches, run concurrently, and the pages they vote for. Kept whole (over 60 lines)
     * because the searches share the pool and the hits gathered by query, which live exactly as long as
     * the round; its two branches are the two ways of searching (per query, or one per tool as the
     * authors' code does) and read best side by side.
     */
    Result run(ResearchPlan plan, GamSettings settings, Set<PageRef> justified) {
        List<CompletableFuture<Search>> running = new ArrayList<>();
        // the caller's observation goes with each search, so its spans stay in the question's trace
        try (ExecutorService pool = ContextExecutorService.wrap(
                Executors.newVirtualThreadPerTaskExecutor(),
                ContextSnapshotFactory.builder().build())) {
            Map<String, List<SearchHit>> hitsByQuery = new java.util.concurrent.ConcurrentHashMap<>();
            int depth = 4 * settings.pagesPerSearch();
            if (settings.searchPerQuery()) {
                start(
                        running,
                        pool,
                        settings,
                        GamSettings.KEYWORD,
                        plan.keywordQueries(),
                        q -> search(
                                GamSettings.KEYWORD, q, retriever.keyword(documents, q, depth), settings, hitsByQuery));
                start(
                        running,
                        pool,
                        settings,
                        GamSettings.VECTOR,
                        plan.vectorQueries(),
                        q -> search(
                                GamSettings.VECTOR, q, retriever.vector(documents, q, depth), settings, hitsByQuery));
                start(running, pool, settings, GamSettings.MEMO, plan.vectorQueries(), q -> memoSearch(q, settings));
            } else {
                // As the authors' code reads the paper: one search per tool and round.
                List<String> keywords = plan.keywordQueries();
                start(
                        running,
                        pool,
                        settings,
                        GamSettings.KEYWORD,
                        keywords.isEmpty() ? List.of() : List.of(String.join(" ", keywords)),
                        q -> search(
                                GamSettings.KEYWORD, q, retriever.keyword(documents, q, depth), settings, hitsByQuery));
                List<String> vectors = plan.vectorQueries();
                start(
                        running,
                        pool,
                        settings,
                        GamSettings.VECTOR,
                        vectors.isEmpty() ? List.of() : List.of(String.join(JOINED, vectors)),
                        joined -> fused(vectors, depth, settings, hitsByQuery));
                start(
                        running,
                        pool,
                        settings,
                        GamSettings.MEMO,
                        vectors.isEmpty() ? List.of() : List.of(String.join(JOINED, vectors)),
                        joined -> fusedMemos(vectors, settings));
            }
            List<Search> searches =
                    running.stream().map(CompletableFuture::join).toList();
            List<PageRef> rejected = new ArrayList<>();
            List<PageRef> byId = new ArrayList<>();
            if (settings.uses(GamSettings.PAGE)) {
                for (PageRef ref : plan.pages()) {
                    if (justified.contains(ref) && byId.size() < GamSettings.MAX_PAGE_IDS) {
                        byId.add(ref);
                    } else {
                        rejected.add(ref);
                    }
                }
            } else {
                rejected.addAll(plan.pages());
            }
            return new Result(withPageReads(searches, byId), merge(searches, byId, hitsByQuery, settings), rejected);
        }
    }

    /** Starts one search of {@code tool} per query on the pool, where the settings allow the tool. */
    private static void start(
            List<CompletableFuture<Search>> running,
            ExecutorService pool,
            GamSettings settings,
            String tool,
            List<String> queries,
            Function<String, Search> search) {
        if (settings.uses(tool)) {
            for (String q : queries) {
                running.add(CompletableFuture.supplyAsync(() -> search.apply(q), pool));
            }
        }
    }

    /** How a round's queries are named when they ran as one search. */
    static final String JOINED = " | ";

    private Search memoSearch(String query, GamSettings settings) {
        return new Search(
                GamSettings.MEMO,
                query,
                retriever.memoVector(documents, query, settings.pagesPerSearch()).stream()
                        .map(m -> new PageRef(documents.indexOf(m.documentId()) + 1, m.pageOrdinal()))
                        .toList());
    }

    /**
     * The vector queries as one ranking: each page scores the sum, over the queries, of its best chunk's
     * similarity to that query; the best {@code pagesPerSearch} pages are the search's.
     */
    private Search fused(
            List<String> queries, int depth, GamSettings settings, Map<String, List<SearchHit>> hitsByQuery) {
        Map<PageRef, Double> scores = new LinkedHashMap<>();
        Map<PageRef, List<SearchHit>> hits = new LinkedHashMap<>();
        for (String q : queries) {
            Map<PageRef, Double> best = new LinkedHashMap<>();
            for (SearchHit hit : retriever.vector(documents, q, depth)) {
                best.merge(ref(hit), hit.score(), Math::max);
                hits.computeIfAbsent(ref(hit), k -> new ArrayList<>()).add(hit);
            }
            best.forEach((ref, score) -> scores.merge(ref, score, Double::sum));
        }
        List<PageRef> pages = top(scores, settings.pagesPerSearch());
        String joined = String.join(JOINED, queries);
        pages.forEach(ref -> hitsByQuery
                .computeIfAbsent(
                        GamSettings.VECTOR + ":" + joined,
                        k -> java.util.Collections.synchronizedList(new ArrayList<>()))
                .addAll(hits.get(ref)));
        return new Search(GamSettings.VECTOR, joined, pages);
    }

    /** The memo tool's queries as one ranking, each page scoring the sum of its memo's similarity to each query. */
    private Search fusedMemos(List<String> queries, GamSettings settings) {
        Map<PageRef, Double> scores = new LinkedHashMap<>();
        for (String q : queries) {
            for (Retriever.MemoHit m : retriever.memoVector(documents, q, 4 * settings.pagesPerSearch())) {
                scores.merge(
                        new PageRef(documents.indexOf(m.documentId()) + 1, m.pageOrdinal()), m.score(), Double::sum);
            }
        }
        return new Search(GamSettings.MEMO, String.join(JOINED, queries), top(scores, settings.pagesPerSearch()));
    }

    private static List<PageRef> top(Map<PageRef, Double> scores, int n) {
        return scores.entrySet().stream()
                .sorted(Map.Entry.<PageRef, Double>comparingByValue().reversed())
                .limit(n)
                .map(Map.Entry::getKey)
                .toList();
    }

    private Search search(
            String tool,
            String query,
            List<SearchHit> hits,
            GamSettings settings,
            Map<String, List<SearchHit>> hitsByQuery) {
        List<PageRef> pages = new ArrayList<>();
        for (SearchHit hit : hits) {
            PageRef ref = ref(hit);
            if (!pages.contains(ref)) {
                if (pages.size() == settings.pagesPerSearch()) {
                    break;
                }
                pages.add(ref);
            }
            hitsByQuery
                    .computeIfAbsent(tool + ":" + query, k -> java.util.Collections.synchronizedList(new ArrayList<>()))
                    .add(hit);
        }
        return new Search(tool, query, pages);
    }

    private static List<Search> withPageReads(List<Search> searches, List<PageRef> byId) {
        List<Search> all = new ArrayList<>(searches);
        if (!byId.isEmpty()) {
            all.add(new Search(GamSettings.PAGE, "", byId));
        }
        return all;
    }

    /** Pages found by more queries, and ranked higher by them, come first. */
    private List<Found> merge(
            List<Search> searches, List<PageRef> byId, Map<String, List<SearchHit>> hitsByQuery, GamSettings settings) {
        Map<PageRef, int[]> votes = new LinkedHashMap<>();
        for (Search s : searches) {
            for (int rank = 0; rank < s.pages().size(); rank++) {
                int[] v = votes.computeIfAbsent(s.pages().get(rank), k -> new int[] {0, Integer.MAX_VALUE});
                v[0]++;
                v[1] = Math.min(v[1], rank);
            }
        }
        for (PageRef ref : byId) {
            int[] v = votes.computeIfAbsent(ref, k -> new int[] {0, Integer.MAX_VALUE});
            v[0]++;
            v[1] = 0;
        }
        List<SearchHit> allHits =
                hitsByQuery.values().stream().flatMap(List::stream).toList();
        return votes.entrySet().stream()
                .sorted(Comparator.<Map.Entry<PageRef, int[]>>comparingInt(e -> -e.getValue()[0])
                        .thenComparingInt(e -> e.getValue()[1]))
                .map(e -> new Found(
                        e.getKey(),
                        e.getValue()[0],
                        e.getValue()[1],
                        allHits.stream()
                                .filter(h -> ref(h).equals(e.getKey()))
                                .distinct()
                                .toList()))
                .toList();
    }

    PageRef ref(SearchHit hit) {
        return new PageRef(documents.indexOf(hit.documentId()) + 1, hit.pageOrdinal());
    }

    UUID document(PageRef ref) {
        return documents.get(ref.doc() - 1);
    }
}
