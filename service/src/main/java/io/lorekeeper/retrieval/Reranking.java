package io.lorekeeper.retrieval;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.IntFunction;

import jakarta.annotation.PreDestroy;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

import io.lorekeeper.document.search.SearchHit;

/**
 * The stage between first-stage retrieval and whoever asked: when a reranker is configured, a search
 * for k hits takes the first {@link RerankSettings#candidates} (at least k) from its first stage, has
 * them scored and returns the k best by that score. Measured on natural questions over novels, the
 * passage holding the answer is among the first 30 hybrid hits for 94% of questions but among the
 * first 5 (what 1,500 tokens hold) for 55%: the order within, not the candidates, is what is missing.
 * A reranker that fails leaves the first-stage order, so a search never fails for it, and is left to
 * rest for {@link #REST} before the next search tries it again. With {@code llm: true} and no endpoint,
 * the configured LLM reranks instead ({@link LlmReranker}), for searches made in a {@link RerankScope}
 * (a question's: the call is on its budget and in its trace).
 */
@Component
class Reranking {

    private static final Logger log = LoggerFactory.getLogger(Reranking.class);

    /** How long searches go without reranking after the reranker failed. */
    static final java.time.Duration REST = java.time.Duration.ofSeconds(30);

    private final RerankSettings settings;
    private final Optional<Reranker> reranker;
    private final LlmReranker byModel;
    private volatile long restingUntil = System.nanoTime();
    /** As {@link #restingUntil}, for the model: a model that is down would cost every search its retries. */
    private volatile long modelRestingUntil = System.nanoTime();

    @Autowired
    Reranking(RerankSettings settings) {
        this(settings, configured(settings));
    }

    Reranking(RerankSettings settings, Optional<Reranker> reranker) {
        this.settings = settings;
        this.reranker = reranker;
        this.byModel = new LlmReranker(settings.maxChars());
        if (reranker.isEmpty() && settings.llm()) {
            log.info("Search hits of questions are reranked by the LLM ({} candidates)", settings.llmCandidates());
        }
        reranker.ifPresent(
                r -> log.info("Search hits are reranked by {} ({} candidates)", r.name(), settings.candidates()));
    }

    private static Optional<Reranker> configured(RerankSettings settings) {
        if (!settings.enabled()) {
            return Optional.empty();
        }
        return Optional.of(settings.inProcess() ? new OnnxReranker(settings) : new HttpReranker(settings));
    }

    @PreDestroy
    void close() throws Exception {
        if (reranker.orElse(null) instanceof AutoCloseable closeable) {
            closeable.close();
        }
    }

    boolean enabled() {
        return reranker.isPresent();
    }

    /** Whether searches in {@code scope} are reranked by the model. */
    private boolean byModel(RerankScope scope) {
        return reranker.isEmpty()
                && settings.llm()
                && scope != null
                && scope.llm() != null
                && System.nanoTime() - modelRestingUntil >= 0;
    }

    /** Whether a search for one request reranks by the model: an LLM rerank is set and no other reranker is. */
    boolean modelReranks() {
        return reranker.isEmpty() && settings.llm();
    }

    private int candidates(RerankScope scope) {
        return byModel(scope) ? settings.llmCandidates() : settings.candidates();
    }

    /** The k best hits for {@code query}: the first stage's, reranked when a reranker is configured. */
    List<SearchHit> top(String query, int k, IntFunction<List<SearchHit>> firstStage) {
        return top(query, k, firstStage, null);
    }

    /** As {@link #top(String, int, IntFunction)}, by the model where {@code scope} lets it. */
    List<SearchHit> top(String query, int k, IntFunction<List<SearchHit>> firstStage, RerankScope scope) {
        if (reranker.isEmpty() && !byModel(scope)) {
            return firstStage.apply(k);
        }
        return reorder(query, firstStage.apply(Math.max(k, candidates(scope))), scope).stream()
                .limit(k)
                .toList();
    }

    /**
     * The ranking with its first {@link RerankSettings#candidates} hits in the reranker's order and the
     * rest after them as they were; unchanged without a reranker.
     */
    List<SearchHit> reorder(String query, List<SearchHit> ranked) {
        return reorder(query, ranked, null);
    }

    List<SearchHit> reorder(String query, List<SearchHit> ranked, RerankScope scope) {
        // decided once: another search's failed rerank may rest the model meanwhile
        boolean model = byModel(scope);
        if ((reranker.isEmpty() && !model) || ranked.size() < 2) {
            return ranked;
        }
        int n = Math.min(ranked.size(), model ? settings.llmCandidates() : settings.candidates());
        List<SearchHit> head = ranked.subList(0, n);
        List<SearchHit> reordered =
                new ArrayList<>(model ? byTheModel(query, head, scope) : rerank(query, head, n, scope));
        reordered.addAll(ranked.subList(n, ranked.size()));
        return reordered;
    }

    private List<SearchHit> byTheModel(String query, List<SearchHit> candidates, RerankScope scope) {
        double[] scores = byModel.scores(query, texts(candidates), scope);
        if (scores == null) {
            modelRestingUntil = System.nanoTime() + REST.toNanos();
        }
        return ordered(candidates, scores, candidates.size());
    }

    private static List<String> texts(List<SearchHit> hits) {
        return hits.stream().map(SearchHit::text).toList();
    }

    /** The k best of {@code candidates} by the reranker's scores; the candidates' own order if it fails. */
    List<SearchHit> rerank(String query, List<SearchHit> candidates, int k) {
        return rerank(query, candidates, k, null);
    }

    private List<SearchHit> rerank(String query, List<SearchHit> candidates, int k, RerankScope scope) {
        if (reranker.isEmpty() || candidates.size() < 2) {
            return candidates.stream().limit(k).toList();
        }
        if (System.nanoTime() - restingUntil < 0) {
            report(scope, query, candidates.size(), List.of(), "the reranker failed recently and is resting");
            return candidates.stream().limit(k).toList();
        }
        double[] scores;
        try {
            scores = reranker.get().scores(query, texts(candidates));
        } catch (RuntimeException e) {
            // a reranker that is down would make every search wait out its retries: rest it a while
            restingUntil = System.nanoTime() + REST.toNanos();
            log.warn("reranking failed, the first-stage order stands for {} s: {}", REST.toSeconds(), e.getMessage());
            report(scope, query, candidates.size(), List.of(), "the reranker failed: " + e.getMessage());
            return candidates.stream().limit(k).toList();
        }
        List<Integer> order = orderOf(scores);
        report(scope, query, candidates.size(), order, null);
        return pick(candidates, scores, order, k);
    }

    /** Tells the scope, where there is one, what the reranker did: the order its scores give, or why none. */
    private void report(RerankScope scope, String query, int candidates, List<Integer> order, String skipped) {
        if (scope == null) {
            return;
        }
        scope.report()
                .accept(new RerankScope.Reranked(
                        reranker.orElseThrow().name(), query, candidates, order, 0, 0, 0, skipped));
    }

    /** The k best candidates by {@code scores}; the candidates' own order where there are none. */
    private static List<SearchHit> ordered(List<SearchHit> candidates, double[] scores, int k) {
        if (scores == null) {
            return candidates.stream().limit(k).toList();
        }
        return pick(candidates, scores, orderOf(scores), k);
    }

    private static List<SearchHit> pick(List<SearchHit> candidates, double[] scores, List<Integer> order, int k) {
        return order.stream()
                .limit(k)
                .map(i -> candidates.get(i).withScore(scores[i]))
                .toList();
    }

    /**
     * Indexes by falling score; ties keep the first stage's order. A score that is not a number (a
     * passage the reply left out) is first set below every scored one.
     */
    private static List<Integer> orderOf(double[] scores) {
        double floor = Arrays.stream(scores).filter(Double::isFinite).min().orElse(0) - 1;
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < scores.length; i++) {
            if (!Double.isFinite(scores[i])) {
                scores[i] = floor;
            }
            order.add(i);
        }
        order.sort(Comparator.comparingDouble((Integer i) -> -scores[i]).thenComparing(i -> i));
        return order;
    }
}
