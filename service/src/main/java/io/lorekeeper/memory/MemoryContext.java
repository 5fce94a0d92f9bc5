package io.lorekeeper.memory;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.stream.Collectors;

import io.lorekeeper.text.TokenCounter;

/**
 * The memory so far as one prompt shows it: the memos of earlier pages, newest kept first when they
 * do not all fit the token budget (what just happened matters most for reading the next page),
 * then listed oldest first. Labelled with page ordinals, which the researcher's page tool accepts.
 */
final class MemoryContext {

    static final String NONE = "(none: this is the first page)";

    private MemoryContext() {}

    /** The memos of pages before {@code pageOrdinal} that fit {@code budgetTokens}, rendered oldest first. */
    static String before(List<MemorizerStore.Memo> memos, int pageOrdinal, int budgetTokens) {
        List<MemorizerStore.Memo> earlier =
                memos.stream().filter(m -> m.pageOrdinal() < pageOrdinal).toList();
        Deque<MemorizerStore.Memo> kept = new ArrayDeque<>();
        int tokens = 0;
        for (int i = earlier.size() - 1; i >= 0; i--) {
            String line = line(earlier.get(i));
            int cost = TokenCounter.count(line) + 1;
            if (tokens + cost > budgetTokens) {
                break;
            }
            kept.addFirst(earlier.get(i));
            tokens += cost;
        }
        if (earlier.isEmpty()) {
            return NONE;
        }
        String omitted = kept.size() < earlier.size()
                ? "(the memos of " + (earlier.size() - kept.size()) + " earlier pages are left out)\n\n"
                : "";
        return omitted + kept.stream().map(MemoryContext::line).collect(Collectors.joining("\n\n"));
    }

    private static String line(MemorizerStore.Memo memo) {
        return "[page " + memo.pageOrdinal() + "] " + memo.text();
    }
}
