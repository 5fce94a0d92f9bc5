package io.lorekeeper.memcot;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How the judge's action turns this step's queries into the next step's. BREAK: the judge's
 * sub-queries replace the queue. DELETE: the queries it says the evidence settles leave the queue,
 * the others stay, and its narrowed queries join them. Either way a query that already failed is
 * never searched again, and the queue holds at most {@code max} queries. When nothing is left, the
 * root question is searched again unless it failed too, in which case the loop has nothing new to try.
 */
final class NextQueries {

    private NextQueries() {}

    /**
     * @param queries        the next queue; empty means stop
     * @param repeats        proposed queries dropped because they already failed
     * @param settled        current queries dropped by DELETE
     * @param unknownSettled DELETE numbers that name no current query
     * @param fellBack       the queue is the root question because nothing else was left
     */
    record Next(
            List<String> queries,
            List<String> repeats,
            List<String> settled,
            List<Integer> unknownSettled,
            boolean fellBack) {}

    static Next after(List<String> current, Judgement judgement, ShortTermMemory memory, String root, int max) {
        List<String> candidates = new ArrayList<>();
        List<String> settled = new ArrayList<>();
        List<Integer> unknownSettled = new ArrayList<>();
        if (judgement.action() == Judgement.Action.DELETE) {
            for (Integer n : judgement.resolved()) {
                if (n < 1 || n > current.size()) {
                    unknownSettled.add(n);
                }
            }
            for (int i = 0; i < current.size(); i++) {
                if (judgement.resolved().contains(i + 1)) {
                    settled.add(current.get(i));
                } else {
                    candidates.add(current.get(i));
                }
            }
        }
        candidates.addAll(judgement.newQueries());
        Map<String, String> queue = new LinkedHashMap<>();
        List<String> repeats = new ArrayList<>();
        for (String q : candidates) {
            String key = ShortTermMemory.normalise(q);
            if (key.isEmpty() || queue.containsKey(key)) {
                continue;
            }
            if (memory.failed(q)) {
                repeats.add(q);
            } else if (queue.size() < max) {
                queue.put(key, q);
            }
        }
        if (!queue.isEmpty()) {
            return new Next(List.copyOf(queue.values()), repeats, settled, unknownSettled, false);
        }
        boolean rootLeft = !memory.failed(root);
        return new Next(rootLeft ? List.of(root) : List.of(), repeats, settled, unknownSettled, rootLeft);
    }
}
