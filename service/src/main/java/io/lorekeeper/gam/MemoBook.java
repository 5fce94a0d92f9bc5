package io.lorekeeper.gam;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

import io.lorekeeper.retrieval.Retriever.MemoText;
import io.lorekeeper.text.Terms;
import io.lorekeeper.text.TokenCounter;

/**
 * The memos the planner reads, labelled with page references. The paper plans over the whole
 * memory, and so does this whenever it fits the planner's prompt. When it does not (a long book's
 * memos on a small context window), each round shows the memos most relevant to the round's
 * request, the question plus its follow-ups: ranked by reciprocal-rank fusion of the memo's
 * embedding similarity to the request and the request terms it shares, shown in page order.
 */
final class MemoBook {

    private record Entry(PageRef ref, String line, int tokens, String text) {}

    /** What one round shows: the rendered memos and the pages they are about. */
    record Shown(String rendered, Set<PageRef> refs, int tokens) {}

    private final List<Entry> entries;
    private final int totalTokens;

    private MemoBook(List<Entry> entries) {
        this.entries = entries;
        this.totalTokens = entries.stream().mapToInt(Entry::tokens).sum();
    }

    static MemoBook of(List<MemoText> memos, List<UUID> documents) {
        List<Entry> entries = new ArrayList<>();
        for (MemoText memo : memos) {
            PageRef ref = new PageRef(documents.indexOf(memo.documentId()) + 1, memo.pageOrdinal());
            String line = ref.label() + ": " + memo.text().strip().replace('\n', ' ');
            entries.add(new Entry(ref, line, TokenCounter.count(line) + 1, memo.text()));
        }
        return new MemoBook(entries);
    }

    /**
     * The memos for a round within {@code budget} tokens: all of them when they fit, otherwise the
     * most relevant to {@code request}. {@code similarity} gives each page's memo similarity to the
     * request; it is asked only when the memos do not all fit.
     */
    Shown select(String request, int budget, Function<String, Map<PageRef, Double>> similarity) {
        if (entries.isEmpty()) {
            return new Shown("(no memos: the memos stage has not run for these documents)", Set.of(), 0);
        }
        if (totalTokens <= budget) {
            return shown(entries);
        }
        Set<String> asked = new HashSet<>(Terms.of(request));
        Map<PageRef, Double> similar = similarity.apply(request);
        Map<Entry, Double> score = new HashMap<>();
        List<Entry> byTerms = entries.stream()
                .sorted(Comparator.comparingLong((Entry e) -> -Terms.of(e.text()).stream()
                        .distinct()
                        .filter(asked::contains)
                        .count()))
                .toList();
        List<Entry> bySimilarity = entries.stream()
                .sorted(Comparator.comparingDouble((Entry e) -> -similar.getOrDefault(e.ref(), -1.0)))
                .toList();
        for (List<Entry> ranking : List.of(byTerms, bySimilarity)) {
            for (int rank = 0; rank < ranking.size(); rank++) {
                score.merge(ranking.get(rank), 1.0 / (60 + rank + 1), Double::sum);
            }
        }
        Set<Entry> kept = new HashSet<>();
        int used = 0;
        for (Entry e : entries.stream()
                .sorted(Comparator.comparingDouble((Entry e) -> -score.get(e)))
                .toList()) {
            if (used + e.tokens() <= budget) {
                kept.add(e);
                used += e.tokens();
            }
        }
        return shown(entries.stream().filter(kept::contains).toList());
    }

    private static Shown shown(List<Entry> inOrder) {
        Set<PageRef> refs = new LinkedHashSet<>();
        inOrder.forEach(e -> refs.add(e.ref()));
        return new Shown(
                String.join("\n", inOrder.stream().map(Entry::line).toList()),
                refs,
                inOrder.stream().mapToInt(Entry::tokens).sum());
    }

    int total() {
        return entries.size();
    }

    int totalTokens() {
        return totalTokens;
    }
}
