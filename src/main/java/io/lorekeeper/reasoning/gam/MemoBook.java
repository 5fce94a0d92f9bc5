package io.lorekeeper.reasoning.gam;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import io.lorekeeper.retrieval.Retriever.MemoText;
import io.lorekeeper.text.Terms;
import io.lorekeeper.text.TokenCounter;

/**
 * The memos the planner reads, labelled with page references. When they exceed the token budget,
 * the memos sharing most terms with the question are kept, shown in page order. Only pages whose
 * memo was shown can be asked for by reference.
 */
final class MemoBook {

    private final List<String> lines;
    private final Set<PageRef> justified;
    private final int total;

    private MemoBook(List<String> lines, Set<PageRef> justified, int total) {
        this.lines = lines;
        this.justified = justified;
        this.total = total;
    }

    static MemoBook of(List<MemoText> memos, List<UUID> documents, String question, int tokenBudget) {
        record Entry(PageRef ref, String line, int tokens, long overlap) {
        }
        Set<String> asked = new HashSet<>(Terms.of(question));
        List<Entry> entries = new ArrayList<>();
        for (MemoText memo : memos) {
            PageRef ref = new PageRef(documents.indexOf(memo.documentId()) + 1, memo.pageOrdinal());
            String line = ref.label() + ": " + memo.text().strip().replace('\n', ' ');
            long overlap = Terms.of(memo.text()).stream().distinct().filter(asked::contains).count();
            entries.add(new Entry(ref, line, TokenCounter.count(line), overlap));
        }
        List<Entry> kept = new ArrayList<>();
        int used = 0;
        for (Entry e : entries.stream().sorted(Comparator.comparingLong(Entry::overlap).reversed()).toList()) {
            if (used + e.tokens() <= tokenBudget) {
                kept.add(e);
                used += e.tokens();
            }
        }
        List<Entry> inOrder = entries.stream().filter(kept::contains).toList();
        Set<PageRef> justified = new LinkedHashSet<>();
        inOrder.forEach(e -> justified.add(e.ref()));
        return new MemoBook(inOrder.stream().map(Entry::line).toList(), justified, entries.size());
    }

    String render() {
        return lines.isEmpty() ? "(no memos: the memos stage has not run for these documents)" : String.join("\n", lines);
    }

    Set<PageRef> justified() {
        return justified;
    }

    int shown() {
        return lines.size();
    }

    int total() {
        return total;
    }
}
