package io.lorekeeper.memcot;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * MemCoT's per-question short-term memory. The semantic part is the evidence gathered so far, which
 * only grows (kept in the order it was added; shown in document order). The episodic part is the
 * trajectory of steps, and the failed ones: steps that added no evidence, whose queries are never
 * searched again and the last {@value #FAILURES_SHOWN} of which the judge sees.
 */
final class ShortTermMemory {

    static final int FAILURES_SHOWN = 3;

    private final Map<String, Unit> semantic = new LinkedHashMap<>();
    private final List<Step> trajectory = new ArrayList<>();
    private final List<Failure> failures = new ArrayList<>();
    private final Set<String> failedQueries = new HashSet<>();

    /** One iteration as the episodic memory keeps it. */
    record Step(
            int number,
            List<String> queries,
            String action,
            List<String> zoomInKept,
            List<String> zoomOutKept,
            String missing,
            String judgeThinking,
            List<String> added) {}

    /** A step that found nothing new: what it asked, after which action, and what it said was missing. */
    record Failure(int step, List<String> queries, String lastAction, String missing) {}

    boolean knows(Unit unit) {
        return semantic.containsKey(unit.id());
    }

    /** Adds the units not yet known and returns them. */
    List<Unit> add(Collection<Unit> units) {
        List<Unit> added = new ArrayList<>();
        for (Unit u : units) {
            if (semantic.putIfAbsent(u.id(), u) == null) {
                added.add(u);
            }
        }
        return added;
    }

    /** The evidence in the order it was added (the judge's earliest picks first). */
    List<Unit> evidence() {
        return List.copyOf(semantic.values());
    }

    boolean isEmpty() {
        return semantic.isEmpty();
    }

    void record(Step step) {
        trajectory.add(step);
    }

    void fail(Failure failure) {
        failures.add(failure);
        failure.queries().forEach(q -> failedQueries.add(normalise(q)));
    }

    boolean failed(String query) {
        return failedQueries.contains(normalise(query));
    }

    List<Failure> recentFailures() {
        return List.copyOf(failures.subList(Math.max(0, failures.size() - FAILURES_SHOWN), failures.size()));
    }

    List<Step> trajectory() {
        return List.copyOf(trajectory);
    }

    /** Queries compared without case, surrounding punctuation or repeated spaces: "Where?" repeats "where". */
    static String normalise(String query) {
        return query == null
                ? ""
                : query.toLowerCase(Locale.ROOT)
                        .replaceAll("[^\\p{L}\\p{N}]+", " ")
                        .strip();
    }
}
