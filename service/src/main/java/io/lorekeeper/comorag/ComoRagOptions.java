package io.lorekeeper.comorag;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.lorekeeper.platform.ApiProblem;
import io.lorekeeper.strategy.QuestionOptions;

/**
 * A ComoRAG question's knobs, with the paper's values as defaults (Table 6): five cycles, three
 * probes per cycle, a 6,000-token context split 8:2:2:1 over veridical evidence, semantic
 * summaries, episodic summaries and the fused history, and half of the memory pool fused. The
 * ablations of the paper's Table 2 are {@code layers} (without a layer), {@code memory: false}
 * (without the memory workspace: no cues, no fusion) and {@code probing: false} (without probes:
 * every cycle searches with the question again, leaving out evidence already seen).
 *
 * @param encode {@code per-layer}: one cue per probe and layer (the paper, 3 calls per probe), or
 *               {@code per-probe}: one call per probe writing the three cues (the authors' code)
 * @param cues   what the next self-probe sees: {@code last-cycle}, the cues of the units of the
 *               prior step (the paper's section 2.3), or {@code pool}, every cue in the pool
 *               (Algorithm 1, line 22)
 * @param veridical how the veridical layer ranks units: {@code graph}, a personalised PageRank over
 *                  the entity–fact–passage graph seeded by the facts and entities the probe links to
 *                  (HippoRAG 2, the paper), or {@code fusion}, reciprocal-rank fusion of units by
 *                  vector, by fact vector and by entity name (the earlier stand-in)
 * @param tryAnswer what try-answer reads after the first cycle: {@code memory}, the new memory units
 *                  (their evidence with the cue written for it, Eq. 3), or {@code evidence}, the raw
 *                  evidence of the new units only
 * @param afterFailure what a loop that ran out of cycles (or of probes or new evidence) without settling the
 *                     question answers: {@code signal}, the paper's failure signal (a fixed "not settled"
 *                     answer at confidence 0, no citations), or {@code tentative}, the best-supported tentative
 *                     answer of the tries, else the last resort over the memory pool (the service's earlier
 *                     behaviour). A loop stopped by the budget always answers as {@code tentative} does.
 */
record ComoRagOptions(
        int maxCycles,
        int maxProbes,
        int contextTokens,
        List<Double> split,
        Set<String> layers,
        boolean memory,
        boolean probing,
        String encode,
        String cues,
        double fuseShare,
        String veridical,
        String tryAnswer,
        String afterFailure,
        String factFilter,
        boolean entitySeeds,
        String noNewProbe) {

    static final String VERIDICAL = "veridical";
    static final String SEMANTIC = "semantic";
    static final String EPISODIC = "episodic";
    static final List<String> LAYERS = List.of(VERIDICAL, SEMANTIC, EPISODIC);
    static final String PER_LAYER = "per-layer";
    static final String PER_PROBE = "per-probe";
    static final String LAST_CYCLE = "last-cycle";
    static final String POOL = "pool";
    static final String GRAPH = "graph";
    static final String FUSION = "fusion";
    static final String MEMORY = "memory";
    static final String EVIDENCE = "evidence";
    static final String SIGNAL = "signal";
    static final String TENTATIVE = "tentative";
    static final String LLM = "llm";
    static final String MARGIN = "margin";
    static final String CONTINUE = "continue";
    static final String STOP = "stop";
    private static final List<Double> PAPER_SPLIT = List.of(8.0, 2.0, 2.0, 1.0);
    private static final Set<String> OPTIONS = Set.of(
            "maxCycles",
            "maxProbes",
            "contextTokens",
            "split",
            "layers",
            "memory",
            "probing",
            "encode",
            "cues",
            "fuseShare",
            "veridical",
            "tryAnswer",
            "afterFailure",
            "factFilter",
            "entitySeeds",
            "noNewProbe");

    static ComoRagOptions of(QuestionOptions options) {
        options.allowOnly(OPTIONS);
        return new ComoRagOptions(
                options.intValue("maxCycles", 5, 0, 20),
                options.intValue("maxProbes", 3, 1, 10),
                options.intValue("contextTokens", 6000, 500, 100_000),
                split(options.asMap().get("split")),
                new LinkedHashSet<>(options.stringList("layers", LAYERS, Set.copyOf(LAYERS))),
                options.booleanValue("memory", true),
                options.booleanValue("probing", true),
                options.stringValue("encode", PER_LAYER, Set.of(PER_LAYER, PER_PROBE)),
                options.stringValue("cues", LAST_CYCLE, Set.of(LAST_CYCLE, POOL)),
                options.doubleValue("fuseShare", 0.5, 0.0, 1.0),
                options.stringValue("veridical", GRAPH, Set.of(GRAPH, FUSION)),
                options.stringValue("tryAnswer", MEMORY, Set.of(MEMORY, EVIDENCE)),
                options.stringValue("afterFailure", SIGNAL, Set.of(SIGNAL, TENTATIVE)),
                options.stringValue("factFilter", LLM, Set.of(LLM, MARGIN)),
                options.booleanValue("entitySeeds", false),
                options.stringValue("noNewProbe", CONTINUE, Set.of(CONTINUE, STOP)));
    }

    private static List<Double> split(Object value) {
        if (value == null) {
            return PAPER_SPLIT;
        }
        String problem =
                "split must be four non-negative numbers, the shares of veridical, semantic, episodic and history "
                        + "context (the paper's is [8, 2, 2, 1]), with a positive share for at least one layer";
        if (!(value instanceof List<?> list)
                || list.size() != 4
                || !list.stream()
                        .allMatch(v ->
                                v instanceof Number n && n.doubleValue() >= 0 && Double.isFinite(n.doubleValue()))) {
            throw ApiProblem.invalid("options.split", problem);
        }
        List<Double> shares = list.stream().map(v -> ((Number) v).doubleValue()).toList();
        if (shares.get(0) + shares.get(1) + shares.get(2) <= 0) {
            throw ApiProblem.invalid("options.split", problem);
        }
        return shares;
    }

    boolean uses(String layer) {
        return layers.contains(layer);
    }

    /** This question's share of the context for a layer (0 when the layer is left out) or for the history. */
    int tokensFor(String slot) {
        double total = split.stream().mapToDouble(Double::doubleValue).sum();
        int index = switch (slot) {
            case VERIDICAL -> 0;
            case SEMANTIC -> 1;
            case EPISODIC -> 2;
            default -> 3;
        };
        if (index < 3 && !uses(slot)) {
            return 0;
        }
        return (int) Math.floor(contextTokens * split.get(index) / total);
    }

    int historyTokens() {
        return memory ? tokensFor("history") : 0;
    }

    /** Whether each probe's veridical search asks the model which linked facts bear on it. */
    boolean filtersFactsWithModel() {
        return uses(VERIDICAL) && veridical.equals(GRAPH) && factFilter.equals(LLM);
    }

    /** The index stages this question cannot run without. */
    Set<String> stages() {
        Set<String> stages = new LinkedHashSet<>();
        stages.add(VeridicalStage.NAME);
        if (uses(VERIDICAL)) {
            stages.add(TripleStage.NAME);
        }
        if (uses(SEMANTIC)) {
            stages.add(SemanticStage.NAME);
        }
        if (uses(EPISODIC)) {
            stages.add(EpisodicStage.NAME);
        }
        return stages;
    }
}
