package io.lorekeeper.reasoning.comorag;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.lorekeeper.document.DocumentInfo;
import io.lorekeeper.document.DocumentKind;
import io.lorekeeper.reasoning.comorag.ComoRagStore.Fact;
import io.lorekeeper.reasoning.comorag.ComoRagStore.Scored;
import io.lorekeeper.reasoning.comorag.ComoRagStore.Summary;
import io.lorekeeper.reasoning.comorag.ComoRagStore.Unit;
import io.lorekeeper.reasoning.comorag.ComoRagStore.UnitKey;
import io.lorekeeper.retrieval.Retriever;
import io.lorekeeper.text.TokenCounter;

/**
 * Tri-Retrieve: one search per layer for a query, each filling its share of the context in rank
 * order and leaving out evidence the question has already seen.
 *
 * <p>Veridical units are ranked by reciprocal-rank fusion of three lists (a lighter stand-in for
 * HippoRAGv2's personalised PageRank over the triple graph): the units nearest to the query, the
 * units stating the facts nearest to it, and the units naming entities the query names. Semantic
 * and episodic summaries (of every level) are ranked by cosine similarity.
 */
final class TriRetriever {

    static final int DEPTH = 20;
    private static final int FACTS = 30;
    private static final int FUSION_C = 60;

    private final ComoRagStore store;
    private final Retriever retriever;
    private final List<DocumentInfo> documents;
    private final Function<UUID, String> texts;

    TriRetriever(ComoRagStore store, Retriever retriever, List<DocumentInfo> documents, Function<UUID, String> texts) {
        this.store = store;
        this.retriever = retriever;
        this.documents = documents;
        this.texts = texts;
    }

    /** What one layer returned for one query: the items within its budget, and how they were found. */
    record LayerResult(String layer, List<Evidence> items, int budget, int excluded, List<String> facts) {
        int tokens() {
            return items.stream().mapToInt(Evidence::tokens).sum();
        }
    }

    List<UUID> documentIds() {
        return documents.stream().map(DocumentInfo::id).toList();
    }

    LayerResult veridical(String query, float[] vector, int budget, Set<String> seen) {
        if (budget <= 0) {
            return new LayerResult(ComoRagOptions.VERIDICAL, List.of(), budget, 0, List.of());
        }
        List<UUID> ids = documentIds();
        Set<UnitKey> excluded = seen.stream()
                .filter(s -> s.startsWith("u:"))
                .map(TriRetriever::unitKey)
                .collect(Collectors.toSet());
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
        List<UnitKey> missing =
                fused.keySet().stream().filter(k -> !units.containsKey(k)).toList();
        store.units(missing).forEach(u -> units.put(u.key(), u));
        List<Map.Entry<UnitKey, Double>> ranked = fused.entrySet().stream()
                .filter(e -> units.containsKey(e.getKey()))
                .sorted(Map.Entry.<UnitKey, Double>comparingByValue()
                        .reversed()
                        .thenComparing(e -> e.getKey().documentId())
                        .thenComparingInt(e -> e.getKey().ordinal()))
                .toList();
        List<Evidence> chosen = new ArrayList<>();
        int used = 0;
        for (Map.Entry<UnitKey, Double> entry : ranked) {
            Unit unit = units.get(entry.getKey());
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
        List<String> matched = facts.stream().limit(5).map(f -> f.item().text()).toList();
        return new LayerResult(ComoRagOptions.VERIDICAL, chosen, budget, excluded.size(), matched);
    }

    LayerResult summaries(String layer, float[] vector, int budget, Set<String> seen) {
        if (budget <= 0) {
            return new LayerResult(layer, List.of(), budget, 0, List.of());
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
        return new LayerResult(layer, chosen, budget, excluded.size(), List.of());
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

    static Map<String, Object> view(LayerResult result) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("layer", result.layer());
        out.put("items", result.items().stream().map(Evidence::view).toList());
        out.put("tokens", result.tokens());
        out.put("budget", result.budget());
        out.put("excluded", result.excluded());
        if (!result.facts().isEmpty()) {
            out.put("matchedFacts", result.facts());
        }
        return out;
    }
}
