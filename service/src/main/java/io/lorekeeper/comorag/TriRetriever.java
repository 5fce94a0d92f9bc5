package io.lorekeeper.comorag;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.lorekeeper.comorag.ComoRagStore.Fact;
import io.lorekeeper.comorag.ComoRagStore.Scored;
import io.lorekeeper.comorag.ComoRagStore.Summary;
import io.lorekeeper.comorag.ComoRagStore.Unit;
import io.lorekeeper.comorag.ComoRagStore.UnitKey;
import io.lorekeeper.document.DocumentInfo;
import io.lorekeeper.document.DocumentKind;
import io.lorekeeper.retrieval.Retriever;
import io.lorekeeper.text.TokenCounter;

/**
 * Tri-Retrieve: one search per layer for a query, each filling its share of the context in rank
 * order and leaving out evidence the question has already seen.
 *
 * <p>Veridical units are ranked, by default, by a personalised PageRank over the document's
 * entity–fact–passage graph as HippoRAG 2 does ({@code veridical: "graph"}, see {@link #graph}), or
 * by the earlier reciprocal-rank fusion of three lists ({@code veridical: "fusion"}): the units
 * nearest to the query, the units stating the facts nearest to it, and the units naming entities
 * the query names. Semantic and episodic summaries (of every level) are ranked by cosine similarity.
 */
final class TriRetriever {

    static final int DEPTH = 20;
    private static final int FACTS = 30;
    private static final int FUSION_C = 60;
    static final int LINK_FACTS = 5;
    static final int LINK_ENTITIES = 5;
    static final double ENTITY_LINK_SIMILARITY = 0.8;
    static final double DAMPING = 0.5;
    static final double PASSAGE_WEIGHT = 0.05;
    private static final int SEEDS_TRACED = 10;

    private final ComoRagStore store;
    private final Retriever retriever;
    private final List<DocumentInfo> documents;
    private final Function<UUID, String> texts;
    private final Function<UUID, java.util.Optional<EntityGraph>> graphLoader;
    private final String mode;
    private final FactFilter factFilter;
    private final boolean entitySeeds;

    TriRetriever(ComoRagStore store, Retriever retriever, List<DocumentInfo> documents, Function<UUID, String> texts) {
        this(
                store,
                retriever,
                documents,
                texts,
                id -> java.util.Optional.empty(),
                ComoRagOptions.FUSION,
                FactFilter.marginOnly(),
                false);
    }

    /**
     * @param facts       which linked facts seed the graph ranking ({@link FactFilter})
     * @param entitySeeds whether the entities the query names, and those whose name embedding is close to it,
     *                    are seeds too (the earlier behaviour; HippoRAG 2 seeds entities through facts only)
     */
    TriRetriever(
            ComoRagStore store,
            Retriever retriever,
            List<DocumentInfo> documents,
            Function<UUID, String> texts,
            Function<UUID, java.util.Optional<EntityGraph>> graphLoader,
            String mode,
            FactFilter facts,
            boolean entitySeeds) {
        // a question's probes all read the same graphs: each is loaded once per question
        Map<UUID, java.util.Optional<EntityGraph>> loaded = new java.util.concurrent.ConcurrentHashMap<>();
        this.graphLoader = id -> loaded.computeIfAbsent(id, graphLoader);
        this.mode = mode;
        this.store = store;
        this.retriever = retriever;
        this.documents = documents;
        this.texts = texts;
        this.factFilter = facts;
        this.entitySeeds = entitySeeds;
    }

    /** What one layer returned for one query: the items within its budget, and how they were found. */
    record LayerResult(
            String layer,
            List<Evidence> items,
            int budget,
            int excluded,
            List<String> facts,
            ComoRagEvent.Ranking ranking) {
        int tokens() {
            return items.stream().mapToInt(Evidence::tokens).sum();
        }
    }

    List<UUID> documentIds() {
        return documents.stream().map(DocumentInfo::id).toList();
    }

    LayerResult veridical(String query, float[] vector, int budget, Set<String> seen) {
        if (budget <= 0) {
            return new LayerResult(ComoRagOptions.VERIDICAL, List.of(), budget, 0, List.of(), null);
        }
        Set<UnitKey> excluded = seen.stream()
                .filter(s -> s.startsWith("u:"))
                .map(TriRetriever::unitKey)
                .collect(Collectors.toSet());
        Ranking ranking =
                mode.equals(ComoRagOptions.FUSION) ? fusion(query, vector, excluded) : graph(query, vector, excluded);
        Map<UnitKey, Unit> units = new HashMap<>(ranking.units());
        List<UnitKey> missing = ranking.ranked().stream()
                .map(Map.Entry::getKey)
                .filter(k -> !units.containsKey(k))
                .toList();
        store.units(missing).forEach(u -> units.put(u.key(), u));
        List<Evidence> chosen = new ArrayList<>();
        int used = 0;
        for (Map.Entry<UnitKey, Double> entry : ranking.ranked()) {
            Unit unit = units.get(entry.getKey());
            if (unit == null) {
                continue;
            }
            String text = unit.span().of(texts.apply(unit.documentId()));
            int tokens = TokenCounter.count(text);
            if (used + tokens > budget) {
                continue;
            }
            used += tokens;
            String session = session(unit);
            chosen.add(new Evidence(
                    ComoRagOptions.VERIDICAL,
                    unitId(unit.key()),
                    unit.documentId(),
                    unit.span(),
                    List.of(unit.ordinal()),
                    unit.pageOrdinal(),
                    text,
                    tokens,
                    entry.getValue(),
                    session == null || text.startsWith(session) ? null : session));
        }
        return new LayerResult(
                ComoRagOptions.VERIDICAL, chosen, budget, excluded.size(), ranking.facts(), ranking.trace());
    }

    /** Units in rank order with their scores, the units already loaded, the linked facts and what the trace keeps. */
    private record Ranking(
            List<Map.Entry<UnitKey, Double>> ranked,
            Map<UnitKey, Unit> units,
            List<String> facts,
            ComoRagEvent.Ranking trace) {}

    private static List<Map.Entry<UnitKey, Double>> sorted(Map<UnitKey, Double> scores) {
        return scores.entrySet().stream()
                .sorted(Map.Entry.<UnitKey, Double>comparingByValue()
                        .reversed()
                        .thenComparing(e -> e.getKey().documentId())
                        .thenComparingInt(e -> e.getKey().ordinal()))
                .toList();
    }

    /** The earlier stand-in: reciprocal-rank fusion of units by vector, by fact vector and by entity name. */
    private Ranking fusion(String query, float[] vector, Set<UnitKey> excluded) {
        List<UUID> ids = documentIds();
        List<Scored<Unit>> dense = store.nearestUnits(ids, vector, DEPTH, excluded);
        List<Scored<Fact>> facts = store.nearestFacts(ids, vector, FACTS);
        List<UnitKey> byFact = facts.stream()
                .map(f -> f.item().unit())
                .filter(k -> !excluded.contains(k))
                .distinct()
                .limit(DEPTH)
                .toList();
        List<UnitKey> byEntity = store.unitsNaming(ids, query, DEPTH + excluded.size()).stream()
                .map(Scored::item)
                .filter(k -> !excluded.contains(k))
                .limit(DEPTH)
                .toList();
        Map<UnitKey, Double> fused = new HashMap<>();
        List<List<UnitKey>> rankings =
                List.of(dense.stream().map(s -> s.item().key()).toList(), byFact, byEntity);
        for (List<UnitKey> ranking : rankings) {
            for (int rank = 0; rank < ranking.size(); rank++) {
                fused.merge(ranking.get(rank), 1.0 / (FUSION_C + rank + 1), Double::sum);
            }
        }
        Map<UnitKey, Unit> units = new HashMap<>();
        dense.forEach(s -> units.put(s.item().key(), s.item()));
        List<String> matched = facts.stream().limit(5).map(f -> f.item().text()).toList();
        return new Ranking(sorted(fused), units, matched, ComoRagEvent.Ranking.fusion());
    }

    /**
     * HippoRAG 2's retrieval: the probe is linked to the {@value #LINK_FACTS} facts nearest to it, and
     * the fact filter ({@link FactFilter}: the model's recognition memory, or the margin rule) keeps
     * those that bear on it; each kept fact's subject and object become seeds weighted by the fact's
     * similarity. With {@code entitySeeds}, the entities the probe names or whose name embedding is at
     * least {@value #ENTITY_LINK_SIMILARITY} similar to it are seeds too. An entity seed is divided by
     * the number of units mentioning it (rarer entities say more). Every unit is also seeded with its
     * min-max-normalised dense similarity times {@value #PASSAGE_WEIGHT}. A personalised PageRank
     * (damping {@value #DAMPING}) over each document's graph then ranks the units by their mass.
     * Without any seeded entity (no triples, no graph, no fact kept) the units are ranked by dense
     * similarity, as HippoRAG 2 falls back to dense passage retrieval.
     */
    private Ranking graph(String query, float[] vector, Set<UnitKey> excluded) {
        List<UUID> ids = documentIds();
        Seeds seeds = new Seeds(graphsOf(ids));
        // HippoRAG 2 seeds every passage, not only the nearest ones
        List<Scored<Unit>> dense = store.allUnits(ids, vector);
        Map<UnitKey, Unit> units = new HashMap<>();
        dense.forEach(s -> units.put(s.item().key(), s.item()));
        List<Scored<Fact>> nearest = seeds.graphs.isEmpty() ? List.of() : store.nearestFacts(ids, vector, LINK_FACTS);
        FactFilter.Filtered filtered = factFilter.keep(query, nearest);
        List<Scored<Fact>> facts = filtered.kept();
        seeds.fromFacts(facts);
        if (entitySeeds) {
            seeds.fromNamedEntities(query);
            if (!seeds.graphs.isEmpty()) {
                seeds.fromSimilarEntities(store.nearestEntities(ids, vector, LINK_ENTITIES));
            }
        }
        List<String> matched = facts.stream().map(f -> f.item().text()).toList();
        List<ComoRagEvent.LinkedFact> linked = nearest.stream()
                .map(f ->
                        new ComoRagEvent.LinkedFact(f.item().text(), ComoRagEvent.round4(f.score()), facts.contains(f)))
                .toList();
        ComoRagEvent.Filtering filterTrace = nearest.isEmpty() ? null : filtering(filtered);
        if (seeds.entities.isEmpty()) {
            String fallback = seeds.graphs.isEmpty()
                    ? "dense: no graph (no triples)"
                    : nearest.isEmpty() ? "dense: nothing linked" : "dense: no linked fact kept";
            return new Ranking(
                    byDenseSimilarity(dense, excluded),
                    units,
                    matched,
                    new ComoRagEvent.Ranking(
                            ComoRagOptions.GRAPH, linked, filterTrace, fallback, null, null, null, null));
        }
        Map<UnitKey, Double> passageSeeds = seeds.fromPassages(dense);
        long started = System.nanoTime();
        Map<UnitKey, Double> mass = seeds.mass(passageSeeds);
        double millis = (System.nanoTime() - started) / 1e6;
        excluded.forEach(mass::remove);
        List<Map.Entry<UnitKey, Double>> ranked =
                sorted(mass).stream().filter(e -> e.getValue() > 0).limit(DEPTH).toList();
        return new Ranking(
                ranked,
                units,
                matched,
                new ComoRagEvent.Ranking(
                        ComoRagOptions.GRAPH,
                        linked,
                        filterTrace,
                        null,
                        seeds.strongest(),
                        passageSeeds.size(),
                        ranked.stream()
                                .limit(SEEDS_TRACED)
                                .map(e -> new ComoRagEvent.TopPassage(
                                        unitId(e.getKey()), Math.round(e.getValue() * 1e6) / 1e6))
                                .toList(),
                        Math.round(millis * 1000) / 1000.0));
    }

    private static ComoRagEvent.Filtering filtering(FactFilter.Filtered filtered) {
        return new ComoRagEvent.Filtering(
                filtered.method(), filtered.fallback(), filtered.dropped().isEmpty() ? null : filtered.dropped());
    }

    /** HippoRAG 2's fallback to dense passage retrieval, when nothing seeds the graph. */
    private static List<Map.Entry<UnitKey, Double>> byDenseSimilarity(List<Scored<Unit>> dense, Set<UnitKey> excluded) {
        Map<UnitKey, Double> scores = new HashMap<>();
        dense.stream()
                .filter(s -> !excluded.contains(s.item().key()))
                .forEach(s -> scores.put(s.item().key(), s.score()));
        return sorted(scores);
    }

    /**
     * HippoRAG 2's passage seeds: each unit's dense similarity, min-max normalised over all units, times
     * {@value #PASSAGE_WEIGHT} (the nearest unit gets exactly that weight, the farthest none).
     */
    static Map<UnitKey, Double> passageSeeds(List<Scored<Unit>> dense) {
        double max = dense.stream().mapToDouble(Scored::score).max().orElse(0);
        double min = dense.stream().mapToDouble(Scored::score).min().orElse(0);
        Map<UnitKey, Double> seeds = new HashMap<>();
        for (Scored<Unit> s : dense) {
            double normalised = max > min ? (s.score() - min) / (max - min) : 1.0;
            seeds.put(s.item().key(), PASSAGE_WEIGHT * normalised);
        }
        return seeds;
    }

    private Map<UUID, EntityGraph> graphsOf(List<UUID> ids) {
        Map<UUID, EntityGraph> graphs = new LinkedHashMap<>();
        for (UUID id : ids) {
            graphLoader.apply(id).ifPresent(g -> graphs.put(id, g));
        }
        return graphs;
    }

    /**
     * The personalised PageRank's reset vectors, one per document graph, as the probe's links seed
     * them, with the entity seeds by name for the trace.
     */
    private static final class Seeds {

        final Map<UUID, EntityGraph> graphs;
        final Map<UUID, double[]> resets = new HashMap<>();
        /** Weight per {@code document:entity}. */
        final Map<String, Double> entities = new LinkedHashMap<>();

        Seeds(Map<UUID, EntityGraph> graphs) {
            this.graphs = graphs;
            graphs.forEach((id, g) -> resets.put(id, new double[g.nodeCount()]));
        }

        private void seed(UUID doc, int node, String name, double w) {
            resets.get(doc)[node] += w;
            entities.merge(doc + ":" + name, w, Double::sum);
        }

        /** Each kept fact's subject and object, weighted by the fact's similarity. */
        void fromFacts(List<Scored<Fact>> facts) {
            for (Scored<Fact> f : facts) {
                UUID doc = f.item().unit().documentId();
                EntityGraph g = graphs.get(doc);
                if (g == null) {
                    continue;
                }
                for (String name : List.of(f.item().subject(), f.item().object())) {
                    int node = g.entityNode(name);
                    if (node >= 0) {
                        seed(doc, node, g.entity(node), Math.max(0, f.score()) / g.passageCount(node));
                    }
                }
            }
        }

        /** The entities the query names as whole words. */
        void fromNamedEntities(String query) {
            String lower = query.toLowerCase(java.util.Locale.ROOT);
            graphs.forEach((doc, g) -> {
                for (int node = 0; node < g.entityCount(); node++) {
                    String name = g.entity(node);
                    if (name.length() >= 3 && names(lower, name)) {
                        seed(doc, node, name, 1.0 / g.passageCount(node));
                    }
                }
            });
        }

        /** The entities whose name embedding is close enough to the query's. */
        void fromSimilarEntities(List<Scored<ComoRagStore.EntityRef>> nearest) {
            for (Scored<ComoRagStore.EntityRef> e : nearest) {
                EntityGraph g = graphs.get(e.item().documentId());
                if (g != null && e.score() >= ENTITY_LINK_SIMILARITY) {
                    seed(
                            e.item().documentId(),
                            e.item().node(),
                            e.item().name(),
                            e.score() / g.passageCount(e.item().node()));
                }
            }
        }

        /** Every unit's seed ({@link #passageSeeds}), added to its node's reset weight; by unit. */
        Map<UnitKey, Double> fromPassages(List<Scored<Unit>> dense) {
            Map<UnitKey, Double> passageSeeds = passageSeeds(dense);
            for (Scored<Unit> s : dense) {
                double w = passageSeeds.get(s.item().key());
                EntityGraph g = graphs.get(s.item().documentId());
                if (g != null && g.unitNode(s.item().ordinal()) >= 0) {
                    resets.get(s.item().documentId())[g.unitNode(s.item().ordinal())] += w;
                }
            }
            return passageSeeds;
        }

        /**
         * Each unit's share of the PageRank mass: a document's graph gets its share of all the seeds;
         * units of documents without a graph keep their seed.
         */
        Map<UnitKey, Double> mass(Map<UnitKey, Double> passageSeeds) {
            double total = resets.values().stream()
                            .mapToDouble(r -> java.util.Arrays.stream(r).sum())
                            .sum()
                    + passageSeeds.entrySet().stream()
                            .filter(e -> !graphs.containsKey(e.getKey().documentId()))
                            .mapToDouble(Map.Entry::getValue)
                            .sum();
            Map<UnitKey, Double> mass = new HashMap<>();
            graphs.forEach((doc, g) -> {
                double[] reset = resets.get(doc);
                double share = java.util.Arrays.stream(reset).sum() / total;
                if (share <= 0) {
                    return;
                }
                double[] p = g.personalisedPageRank(reset, DAMPING, 1e-9, 100);
                for (int node = g.entityCount(); node < g.nodeCount(); node++) {
                    mass.put(new UnitKey(doc, g.unitOrdinal(node)), p[node] * share);
                }
            });
            passageSeeds.forEach((key, w) -> {
                if (!graphs.containsKey(key.documentId())) {
                    mass.put(key, w / total);
                }
            });
            return mass;
        }

        /** The strongest entity seeds, for the trace. */
        List<ComoRagEvent.Seed> strongest() {
            return entities.entrySet().stream()
                    .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                    .limit(SEEDS_TRACED)
                    .map(e -> new ComoRagEvent.Seed(
                            e.getKey().substring(e.getKey().indexOf(':') + 1), ComoRagEvent.round4(e.getValue())))
                    .toList();
        }
    }

    /** Whether the lower-cased text names the entity as whole words. */
    static boolean names(String lowerText, String entity) {
        int from = 0;
        while (true) {
            int at = lowerText.indexOf(entity, from);
            if (at < 0) {
                return false;
            }
            int end = at + entity.length();
            boolean startOk = at == 0 || !Character.isLetterOrDigit(lowerText.charAt(at - 1));
            boolean endOk = end == lowerText.length() || !Character.isLetterOrDigit(lowerText.charAt(end));
            if (startOk && endOk) {
                return true;
            }
            from = at + 1;
        }
    }

    LayerResult summaries(String layer, float[] vector, int budget, Set<String> seen) {
        if (budget <= 0) {
            return new LayerResult(layer, List.of(), budget, 0, List.of(), null);
        }
        Set<Long> excluded = seen.stream()
                .filter(s -> s.startsWith("s:"))
                .map(s -> Long.parseLong(s.substring(2)))
                .collect(Collectors.toSet());
        List<Evidence> chosen = new ArrayList<>();
        int used = 0;
        for (Scored<Summary> scored : store.nearestSummaries(documentIds(), layer, vector, DEPTH, excluded)) {
            Summary s = scored.item();
            int tokens = TokenCounter.count(s.text());
            if (used + tokens > budget) {
                continue;
            }
            used += tokens;
            chosen.add(new Evidence(
                    layer,
                    "s:" + s.id(),
                    s.documentId(),
                    s.span(),
                    s.units(),
                    -1,
                    s.text(),
                    tokens,
                    scored.score(),
                    null));
        }
        return new LayerResult(layer, chosen, budget, excluded.size(), List.of(), null);
    }

    static String unitId(UnitKey key) {
        return "u:" + key.documentId() + ":" + key.ordinal();
    }

    private static UnitKey unitKey(String id) {
        int colon = id.lastIndexOf(':');
        return new UnitKey(UUID.fromString(id.substring(2, colon)), Integer.parseInt(id.substring(colon + 1)));
    }

    /**
     * The session line a conversation unit's turns are dated by (they say "yesterday"), for units
     * that do not start with it.
     */
    private String session(Unit unit) {
        boolean conversation = documents.stream()
                .anyMatch(d -> d.id().equals(unit.documentId()) && d.kind() == DocumentKind.CONVERSATION);
        return conversation
                ? retriever
                        .sessionHeader(unit.documentId(), unit.pageOrdinal())
                        .map(Retriever.SessionHeader::text)
                        .orElse(null)
                : null;
    }

    /** Items of several retrievals taken in turns (first of each, then second of each...), within a budget. */
    static List<Evidence> interleave(List<List<Evidence>> lists, int budget) {
        List<Evidence> out = new ArrayList<>();
        Set<String> taken = new java.util.HashSet<>();
        int used = 0;
        int longest = lists.stream().mapToInt(List::size).max().orElse(0);
        for (int i = 0; i < longest; i++) {
            for (List<Evidence> list : lists) {
                if (i >= list.size() || !taken.add(list.get(i).id())) {
                    continue;
                }
                Evidence e = list.get(i);
                if (used + e.tokens() <= budget) {
                    used += e.tokens();
                    out.add(e);
                }
            }
        }
        return out;
    }
}
