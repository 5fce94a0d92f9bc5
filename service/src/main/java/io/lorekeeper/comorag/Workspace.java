package io.lorekeeper.comorag;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import io.lorekeeper.comorag.ComoRagStore.Scored;

/**
 * The question's memory workspace: the pool of memory units, the probes asked so far (starting
 * with the question itself), the evidence already seen (which later retrievals leave out), and the
 * units of the latest step, whose cues tell the next self-probe what is still missing.
 */
final class Workspace {

    private final List<MemoryUnit> pool = new ArrayList<>();
    private final List<String> probes = new ArrayList<>();
    private final Set<String> probeKeys = new LinkedHashSet<>();
    private final Set<String> seen = new LinkedHashSet<>();
    private List<MemoryUnit> lastStep = List.of();
    private int unitCount;

    Workspace(String question) {
        addProbe(question);
    }

    List<MemoryUnit> pool() {
        return List.copyOf(pool);
    }

    List<String> probes() {
        return List.copyOf(probes);
    }

    Set<String> seen() {
        return Set.copyOf(seen);
    }

    String nextUnitId() {
        return "m" + (++unitCount);
    }

    /** Whether a probe says something no earlier probe (the question included) said, ignoring case, spacing and punctuation. */
    boolean isNew(String probe) {
        return !probeKeys.contains(key(probe));
    }

    void addProbe(String probe) {
        if (probeKeys.add(key(probe))) {
            probes.add(probe.strip());
        }
    }

    /** Mem-Update: the step's units join the pool, and their evidence counts as seen. */
    void update(List<MemoryUnit> units) {
        pool.addAll(units);
        units.forEach(u -> u.evidence().forEach(e -> seen.add(e.id())));
        lastStep = List.copyOf(units);
    }

    /** Evidence shown without the memory workspace (its ablation) still counts as seen. */
    void see(List<Evidence> evidence) {
        evidence.forEach(e -> seen.add(e.id()));
    }

    /** The cues the next self-probe reads: the latest step's, or the whole pool's. */
    List<MemoryUnit> cueSource(String mode) {
        return mode.equals(ComoRagOptions.POOL) ? pool() : lastStep;
    }

    /** The share of the pool whose cues are most similar to the question (at least one unit when the pool is not empty). */
    List<Scored<MemoryUnit>> mostRelevant(float[] question, double share) {
        if (pool.isEmpty() || share <= 0) {
            return List.of();
        }
        int k = Math.max(1, (int) Math.floor(share * pool.size()));
        return pool.stream()
                .map(u -> new Scored<>(u, SemanticClusters.cosine(u.cueVector(), question)))
                .sorted(Comparator.comparingDouble((Scored<MemoryUnit> s) -> s.score())
                        .reversed())
                .limit(k)
                .toList();
    }

    static String key(String probe) {
        return probe.toLowerCase(Locale.ROOT)
                .replaceAll("['’]", "")
                .replaceAll("[^\\p{L}\\p{N}]+", " ")
                .strip();
    }
}
