package io.lorekeeper.eval;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.lorekeeper.eval.Metrics.DocSpan;
import io.lorekeeper.text.TokenCounter;
import tools.jackson.databind.JsonNode;

/**
 * Runs a dataset against the service over HTTP: ingests each distinct document once, asks every
 * question with every strategy (at most {@code concurrency} at a time), scores the answers and the
 * evidence in the context the strategy used, and collects cost and latency from the trace.
 *
 * <p>A strategy named {@code search:vector}, {@code search:keyword}, {@code search:hybrid} or {@code search:deep} is not a
 * strategy but a retrieval probe: the best chunks of {@code POST /v1/search} for the question, at most
 * {@code searchK} of them and, with a token budget, as many in rank order as fit in it, are the context, and only evidence recall (and the tokens of that context) is measured.
 *
 * <p>With a {@link Judge}, every answer that came back DONE is also graded by the LLM judge. A run
 * can resume: results passed in as already done are kept and their questions not asked again.
 */
public class EvalRunner {

    private static final Logger log = LoggerFactory.getLogger(EvalRunner.class);
    static final String SEARCH_PREFIX = "search:";

    /**
     * @param options per strategy, the options sent with each question (strategies reject unknown ones)
     * @param searchK at most this many chunks taken from each search probe (1 to 100)
     * @param searchTokens the probe's context budget: hits in rank order while their tokens fit; 0 for none (k alone)
     */
    public record Request(
            String dataset,
            List<EvalItem> items,
            List<String> strategies,
            Map<String, Map<String, Object>> options,
            int concurrency,
            int searchK,
            int searchTokens,
            Duration questionTimeout,
            Duration ingestTimeout) {

        public Request {
            options = options == null ? Map.of() : options;
            concurrency = Math.max(1, concurrency);
            searchK = searchK <= 0 ? 10 : searchK;
            searchTokens = Math.max(0, searchTokens);
            questionTimeout = questionTimeout == null ? Duration.ofMinutes(10) : questionTimeout;
            ingestTimeout = ingestTimeout == null ? Duration.ofMinutes(30) : ingestTimeout;
        }

        /** Probes budgeted by k alone. */
        public Request(
                String dataset,
                List<EvalItem> items,
                List<String> strategies,
                Map<String, Map<String, Object>> options,
                int concurrency,
                int searchK,
                Duration questionTimeout,
                Duration ingestTimeout) {
            this(dataset, items, strategies, options, concurrency, searchK, 0, questionTimeout, ingestTimeout);
        }
    }

    /**
     * The outcome of one question with one strategy. Null metrics do not apply (or failed).
     *
     * @param contextTokens tokens of the context the strategy used (its trace's retrieved and context spans and its
     *                      citations, overlaps once; a search probe: its hits)
     * @param compaction the strategy's own compaction ratio from its trace (MindGraph: first answer-call input ÷ document tokens), else
     *                   {@code contextTokens} ÷ document tokens; null when not measured
     * @param llmCalls model calls for the question, cache hits included
     * @param llmTokens prompt plus completion tokens billed (cache hits bill none); from a service without the
     *                  question's {@code usage}, the trace's total instead, cache hits included
     * @param promptTokens from the question's {@code usage}; null when the service did not report it
     * @param completionTokens likewise
     * @param cacheHits calls answered from the service's response cache; likewise
     * @param judge the LLM judge's score (1 correct, 0 incorrect); null when not judged or the judge failed
     * @param judgement the judge's verdict, reason or error and its own cost, when the answer was judged
     * @param confidence the confidence the strategy reported with its answer, 0 to 1; null when none
     * @param confidenceFeatures what the strategy based its confidence on (its trace's {@code confidenceFeatures}), for
     *                           fitting a calibrated confidence; null when it recorded none
     */
    public record ItemResult(
            String itemId,
            String category,
            String strategy,
            String questionId,
            String status,
            String question,
            String answer,
            List<String> gold,
            Integer choiceIndex,
            Integer answerIndex,
            Double f1,
            Double em,
            Double rougeL,
            Double accuracy,
            Double evidenceRecall,
            int goldEvidence,
            int unresolvedEvidence,
            int contextSpans,
            Integer contextTokens,
            Double compaction,
            long llmCalls,
            long llmTokens,
            Long promptTokens,
            Long completionTokens,
            Long cacheHits,
            long latencyMs,
            Long runMs,
            String error,
            Double judge,
            Judgement judgement,
            Double confidence,
            Map<String, Double> confidenceFeatures) {

        /** Without confidence features (results stored before they were recorded). */
        public ItemResult(
                String itemId,
                String category,
                String strategy,
                String questionId,
                String status,
                String question,
                String answer,
                List<String> gold,
                Integer choiceIndex,
                Integer answerIndex,
                Double f1,
                Double em,
                Double rougeL,
                Double accuracy,
                Double evidenceRecall,
                int goldEvidence,
                int unresolvedEvidence,
                int contextSpans,
                Integer contextTokens,
                Double compaction,
                long llmCalls,
                long llmTokens,
                Long promptTokens,
                Long completionTokens,
                Long cacheHits,
                long latencyMs,
                Long runMs,
                String error,
                Double judge,
                Judgement judgement,
                Double confidence) {
            this(
                    itemId,
                    category,
                    strategy,
                    questionId,
                    status,
                    question,
                    answer,
                    gold,
                    choiceIndex,
                    answerIndex,
                    f1,
                    em,
                    rougeL,
                    accuracy,
                    evidenceRecall,
                    goldEvidence,
                    unresolvedEvidence,
                    contextSpans,
                    contextTokens,
                    compaction,
                    llmCalls,
                    llmTokens,
                    promptTokens,
                    completionTokens,
                    cacheHits,
                    latencyMs,
                    runMs,
                    error,
                    judge,
                    judgement,
                    confidence,
                    null);
        }

        /** A result not (yet) judged, without the token split and compaction (as stored before they were measured). */
        public ItemResult(
                String itemId,
                String category,
                String strategy,
                String questionId,
                String status,
                String question,
                String answer,
                List<String> gold,
                Integer choiceIndex,
                Integer answerIndex,
                Double f1,
                Double em,
                Double rougeL,
                Double accuracy,
                Double evidenceRecall,
                int goldEvidence,
                int unresolvedEvidence,
                int contextSpans,
                Integer contextTokens,
                long llmCalls,
                long llmTokens,
                long latencyMs,
                Long runMs,
                String error) {
            this(
                    itemId,
                    category,
                    strategy,
                    questionId,
                    status,
                    question,
                    answer,
                    gold,
                    choiceIndex,
                    answerIndex,
                    f1,
                    em,
                    rougeL,
                    accuracy,
                    evidenceRecall,
                    goldEvidence,
                    unresolvedEvidence,
                    contextSpans,
                    contextTokens,
                    null,
                    llmCalls,
                    llmTokens,
                    null,
                    null,
                    null,
                    latencyMs,
                    runMs,
                    error,
                    null,
                    null,
                    null);
        }

        /** A result not (yet) judged. */
        ItemResult(
                String itemId,
                String category,
                String strategy,
                String questionId,
                String status,
                String question,
                String answer,
                List<String> gold,
                Integer choiceIndex,
                Integer answerIndex,
                Double f1,
                Double em,
                Double rougeL,
                Double accuracy,
                Double evidenceRecall,
                int goldEvidence,
                int unresolvedEvidence,
                int contextSpans,
                Integer contextTokens,
                Double compaction,
                Cost cost,
                long latencyMs,
                Long runMs,
                String error) {
            this(
                    itemId,
                    category,
                    strategy,
                    questionId,
                    status,
                    question,
                    answer,
                    gold,
                    choiceIndex,
                    answerIndex,
                    f1,
                    em,
                    rougeL,
                    accuracy,
                    evidenceRecall,
                    goldEvidence,
                    unresolvedEvidence,
                    contextSpans,
                    contextTokens,
                    compaction,
                    cost.calls(),
                    cost.tokens(),
                    cost.promptTokens(),
                    cost.completionTokens(),
                    cost.cacheHits(),
                    latencyMs,
                    runMs,
                    error,
                    null,
                    null,
                    null);
        }

        /** The headline score: choice accuracy for multiple choice, else F1. */
        public Double score() {
            return accuracy != null ? accuracy : f1;
        }

        ItemResult judged(Judgement j) {
            return new ItemResult(
                    itemId,
                    category,
                    strategy,
                    questionId,
                    status,
                    question,
                    answer,
                    gold,
                    choiceIndex,
                    answerIndex,
                    f1,
                    em,
                    rougeL,
                    accuracy,
                    evidenceRecall,
                    goldEvidence,
                    unresolvedEvidence,
                    contextSpans,
                    contextTokens,
                    compaction,
                    llmCalls,
                    llmTokens,
                    promptTokens,
                    completionTokens,
                    cacheHits,
                    latencyMs,
                    runMs,
                    error,
                    j.score(),
                    j,
                    confidence,
                    confidenceFeatures);
        }

        /** With the confidence the strategy gave its answer (null when it gave none). */
        ItemResult withConfidence(Double c) {
            return new ItemResult(
                    itemId,
                    category,
                    strategy,
                    questionId,
                    status,
                    question,
                    answer,
                    gold,
                    choiceIndex,
                    answerIndex,
                    f1,
                    em,
                    rougeL,
                    accuracy,
                    evidenceRecall,
                    goldEvidence,
                    unresolvedEvidence,
                    contextSpans,
                    contextTokens,
                    compaction,
                    llmCalls,
                    llmTokens,
                    promptTokens,
                    completionTokens,
                    cacheHits,
                    latencyMs,
                    runMs,
                    error,
                    judge,
                    judgement,
                    c,
                    confidenceFeatures);
        }

        /** With the features the strategy's confidence was computed from. */
        ItemResult withConfidenceFeatures(Map<String, Double> features) {
            return new ItemResult(
                    itemId,
                    category,
                    strategy,
                    questionId,
                    status,
                    question,
                    answer,
                    gold,
                    choiceIndex,
                    answerIndex,
                    f1,
                    em,
                    rougeL,
                    accuracy,
                    evidenceRecall,
                    goldEvidence,
                    unresolvedEvidence,
                    contextSpans,
                    contextTokens,
                    compaction,
                    llmCalls,
                    llmTokens,
                    promptTokens,
                    completionTokens,
                    cacheHits,
                    latencyMs,
                    runMs,
                    error,
                    judge,
                    judgement,
                    confidence,
                    features);
        }

        /** Identifies the result within a run: one per item and strategy. */
        Key key() {
            return new Key(itemId, strategy);
        }
    }

    record Key(String itemId, String strategy) {}

    /**
     * What one answer cost on the model: the question view's {@code usage} (the service's call log);
     * from a service without it, the calls and tokens of the trace's last status event, unsplit.
     */
    record Cost(long calls, long tokens, Long promptTokens, Long completionTokens, Long cacheHits) {

        static final Cost NONE = new Cost(0, 0, 0L, 0L, 0L);

        /** A question that never got an answer back: its cost is unknown, counted as no calls. */
        static final Cost UNKNOWN = new Cost(0, 0, null, null, null);

        static Cost of(JsonNode view, JsonNode trace) {
            JsonNode usage = view.path("usage");
            if (usage.isObject()) {
                long prompt = usage.path("promptTokens").asLong();
                long completion = usage.path("completionTokens").asLong();
                return new Cost(
                        usage.path("calls").asLong(),
                        prompt + completion,
                        prompt,
                        completion,
                        usage.path("cacheHits").asLong());
            }
            long[] status = TraceSpans.usage(trace);
            return new Cost(status[0], status[1], null, null, null);
        }
    }

    /**
     * What the LLM judge said of one answer: verdict ("correct" or "incorrect") and reason, or the
     * error that kept it from judging; the calls and tokens judging cost (not part of {@code llmCalls}).
     */
    public record Judgement(String verdict, String reason, String error, long calls, long tokens) {

        /** 1 for correct, 0 for incorrect, null when the judge failed. */
        public Double score() {
            return verdict == null ? null : verdict.equals("correct") ? 1.0 : 0.0;
        }
    }

    /** Hears of the run's progress; {@code finished} gets each new result as soon as it is scored (to store it). */
    public interface Listener {
        void progress(int done, int total);

        default void finished(ItemResult result) {}

        Listener NONE = (done, total) -> {};
    }

    /** @param tokens the text's tokens, the denominator of compaction */
    private record Doc(String id, String text, int tokens, Map<String, ServiceClient.TurnSpan> turns) {}

    private final ServiceClient client;
    private final Judge judge;

    public EvalRunner(ServiceClient client) {
        this(client, null);
    }

    /** @param judge grades every answer when given; null: no LLM judge */
    EvalRunner(ServiceClient client, Judge judge) {
        this.client = client;
        this.judge = judge;
    }

    /** Runs the evaluation; {@code progress} gets (done, total) after each question. */
    public Report run(Request request, BiConsumer<Integer, Integer> progress) throws InterruptedException {
        return run(request, List.of(), progress::accept);
    }

    /**
     * Runs the questions that {@code earlier} has no result for (a resumed run), and reports on all.
     * An interrupt stops the run with {@link InterruptedException} and leaves unfinished questions
     * without a result, so that a later resume asks them again.
     */
    Report run(Request request, Collection<ItemResult> earlier, Listener listener) throws InterruptedException {
        Instant started = Instant.now();
        int total = request.items().size() * request.strategies().size();
        Map<Key, ItemResult> previous = new HashMap<>();
        earlier.forEach(r -> previous.put(r.key(), r));
        List<ItemResult> results = Collections.synchronizedList(new ArrayList<>());
        List<EvalItem> pending = new ArrayList<>();
        for (EvalItem item : request.items()) {
            boolean missing = false;
            for (String strategy : request.strategies()) {
                ItemResult kept = previous.get(new Key(item.id(), strategy));
                if (kept != null) {
                    results.add(kept);
                } else {
                    missing = true;
                }
            }
            if (missing) {
                pending.add(item);
            }
        }
        AtomicInteger done = new AtomicInteger(results.size());
        listener.progress(done.get(), total);
        if (!results.isEmpty()) {
            log.info("evaluation: resuming with {}/{} questions already done", results.size(), total);
        }
        Map<String, Doc> docs = ingest(request, pending);
        // Locating gold evidence can scan the whole document (approximate matches): once per item, not per strategy.
        Map<String, Gold> golds = new ConcurrentHashMap<>();
        Semaphore slots = new Semaphore(request.concurrency());
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> futures = new ArrayList<>();
            for (EvalItem item : pending) {
                for (String strategy : request.strategies()) {
                    if (previous.containsKey(new Key(item.id(), strategy))) {
                        continue;
                    }
                    slots.acquire();
                    futures.add(pool.submit(() -> {
                        try {
                            Doc doc = docs.get(item.documentKey());
                            ItemResult result = runOne(
                                    request,
                                    item,
                                    strategy,
                                    doc,
                                    golds.computeIfAbsent(item.id(), id -> Gold.of(item, doc)));
                            listener.finished(result);
                            results.add(result);
                            int d = done.incrementAndGet();
                            listener.progress(d, total);
                            if (d % 25 == 0 || d == total) {
                                log.info("evaluation: {}/{} questions", d, total);
                            }
                        } finally {
                            slots.release();
                        }
                        return null;
                    }));
                }
            }
            awaitAll(futures, "");
        }
        // Stable order: as the dataset lists the items, strategies in the order asked.
        Map<String, Integer> order = new ConcurrentHashMap<>();
        for (int i = 0; i < request.items().size(); i++) {
            order.put(request.items().get(i).id(), i);
        }
        List<ItemResult> sorted = new ArrayList<>(results);
        sorted.sort((a, b) -> a.itemId().equals(b.itemId())
                ? Integer.compare(
                        request.strategies().indexOf(a.strategy()),
                        request.strategies().indexOf(b.strategy()))
                : Integer.compare(order.get(a.itemId()), order.get(b.itemId())));
        return Report.of(request.dataset(), request.strategies(), started, Instant.now(), sorted, judge != null);
    }

    private Map<String, Doc> ingest(Request request, List<EvalItem> items) throws InterruptedException {
        Map<String, EvalItem> firsts = new LinkedHashMap<>();
        items.forEach(i -> firsts.putIfAbsent(i.documentKey(), i));
        Map<String, Doc> docs = new ConcurrentHashMap<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(Math.min(4, Math.max(1, firsts.size())))) {
            List<Future<?>> futures = new ArrayList<>();
            for (var entry : firsts.entrySet()) {
                futures.add(pool.submit(() -> {
                    String id = client.ingest(entry.getValue().document(), request.ingestTimeout());
                    Map<String, ServiceClient.TurnSpan> turns = new LinkedHashMap<>();
                    if (entry.getValue().conversation()) {
                        client.turns(id).forEach(t -> turns.put(t.turnId(), t));
                    }
                    String text = client.text(id);
                    docs.put(entry.getKey(), new Doc(id, text, TokenCounter.count(text), turns));
                    log.info("evaluation: document {} ready as {}", entry.getKey(), id);
                    return null;
                }));
            }
            awaitAll(futures, "ingestion failed: ");
        }
        return docs;
    }

    /** Waits for every task; an interrupt inside one is rethrown as such, any other failure as one exception. */
    private static void awaitAll(List<Future<?>> futures, String failure) throws InterruptedException {
        for (Future<?> f : futures) {
            try {
                f.get();
            } catch (ExecutionException e) {
                if (e.getCause() instanceof InterruptedException interrupted) {
                    throw interrupted;
                }
                throw new IllegalStateException(failure + e.getCause().getMessage(), e.getCause());
            }
        }
    }

    /** An item's gold evidence located in its document; {@code unresolved} counts evidence that could not be. */
    private record Gold(List<DocSpan> spans, int unresolved) {

        static Gold of(EvalItem item, Doc doc) {
            List<DocSpan> spans = new ArrayList<>();
            int unresolved = 0;
            for (String e : item.evidence()) {
                DocSpan span = goldSpan(item, doc, e);
                if (span == null) {
                    unresolved++;
                } else {
                    spans.add(span);
                }
            }
            return new Gold(List.copyOf(spans), unresolved);
        }
    }

    /** One question with one strategy; any failure but an interrupt becomes the result's error. */
    private ItemResult runOne(Request request, EvalItem item, String strategy, Doc doc, Gold evidence)
            throws InterruptedException {
        List<DocSpan> gold = evidence.spans();
        int unresolved = evidence.unresolved();
        long started = System.nanoTime();
        try {
            if (strategy.startsWith(SEARCH_PREFIX)) {
                return probe(request, item, strategy, doc, gold, unresolved, started);
            }
            JsonNode view = client.ask(
                    List.of(doc.id()),
                    item.question(),
                    strategy,
                    item.choices(),
                    request.options().get(strategy),
                    request.questionTimeout());
            long latency = (System.nanoTime() - started) / 1_000_000;
            String questionId = view.path("id").asString();
            String status = view.path("status").asString();
            JsonNode trace = client.trace(questionId);
            List<DocSpan> context = new ArrayList<>(TraceSpans.context(trace, doc.id()));
            for (JsonNode c : view.path("citations")) {
                context.add(new DocSpan(
                        c.path("documentId").asString(doc.id()),
                        c.path("start").asInt(),
                        c.path("end").asInt()));
            }
            Cost cost = Cost.of(view, trace);
            int contextTokens = Compaction.contextTokens(doc.text(), doc.id(), context);
            Double compaction = Compaction.ratio(TraceSpans.compaction(trace, doc.id()), contextTokens, doc.tokens());
            Long runMs = view.path("timings").has("runMs")
                    ? view.path("timings").path("runMs").asLong()
                    : null;
            if (!status.equals("DONE")) {
                return new ItemResult(
                        item.id(),
                        item.category(),
                        strategy,
                        questionId,
                        status,
                        item.question(),
                        null,
                        item.answers(),
                        null,
                        item.answerIndex(),
                        null,
                        null,
                        null,
                        null,
                        null,
                        gold.size(),
                        unresolved,
                        context.size(),
                        contextTokens,
                        compaction,
                        cost,
                        latency,
                        runMs,
                        view.path("failureReason").asString(status));
            }
            String answer = view.path("answer").asString("");
            Integer choice =
                    view.hasNonNull("choiceIndex") ? view.get("choiceIndex").asInt() : null;
            Scores s = score(item, answer, choice);
            ItemResult result = new ItemResult(
                            item.id(),
                            item.category(),
                            strategy,
                            questionId,
                            status,
                            item.question(),
                            answer,
                            item.answers(),
                            choice,
                            item.answerIndex(),
                            s.f1,
                            s.em,
                            s.rougeL,
                            s.accuracy,
                            Metrics.evidenceRecall(gold, context),
                            gold.size(),
                            unresolved,
                            context.size(),
                            contextTokens,
                            compaction,
                            cost,
                            latency,
                            runMs,
                            null)
                    .withConfidence(
                            view.hasNonNull("confidence")
                                    ? view.get("confidence").asDouble()
                                    : null)
                    .withConfidenceFeatures(TraceSpans.confidenceFeatures(trace));
            return judge != null && Judge.applies(item) ? result.judged(judge.judge(item, answer)) : result;
        } catch (RuntimeException e) {
            if (Thread.currentThread().isInterrupted()) {
                // Stopped, not failed (the replica is shutting down): no result, so a resume asks again.
                throw new InterruptedException("evaluation interrupted");
            }
            long latency = (System.nanoTime() - started) / 1_000_000;
            return new ItemResult(
                    item.id(),
                    item.category(),
                    strategy,
                    null,
                    "ERROR",
                    item.question(),
                    null,
                    item.answers(),
                    null,
                    item.answerIndex(),
                    null,
                    null,
                    null,
                    null,
                    null,
                    gold.size(),
                    unresolved,
                    0,
                    null,
                    null,
                    Cost.UNKNOWN,
                    latency,
                    null,
                    String.valueOf(e.getMessage()));
        }
    }

    private ItemResult probe(
            Request request,
            EvalItem item,
            String strategy,
            Doc doc,
            List<DocSpan> gold,
            int unresolved,
            long started) {
        String mode = strategy.substring(SEARCH_PREFIX.length());
        JsonNode found = client.search(List.of(doc.id()), item.question(), mode, request.searchK());
        long latency = (System.nanoTime() - started) / 1_000_000;
        List<DocSpan> context = new ArrayList<>();
        int tokens = 0;
        for (JsonNode hit : found.path("hits")) {
            int more = TokenCounter.count(hit.path("text").asString(""));
            if (request.searchTokens() > 0 && tokens + more > request.searchTokens()) {
                break; // a budget, not a target: the context a caller with this many tokens would pass on
            }
            context.add(new DocSpan(
                    hit.path("documentId").asString(doc.id()),
                    hit.path("start").asInt(),
                    hit.path("end").asInt()));
            tokens += more;
        }
        return new ItemResult(
                item.id(),
                item.category(),
                strategy,
                null,
                "DONE",
                item.question(),
                null,
                item.answers(),
                null,
                item.answerIndex(),
                null,
                null,
                null,
                null,
                Metrics.evidenceRecall(gold, context),
                gold.size(),
                unresolved,
                context.size(),
                tokens,
                Compaction.ratio(null, tokens, doc.tokens()),
                Cost.NONE,
                latency,
                null,
                null);
    }

    private static DocSpan goldSpan(EvalItem item, Doc doc, String evidence) {
        if (item.conversation()) {
            ServiceClient.TurnSpan turn = doc.turns().get(evidence);
            return turn == null ? null : new DocSpan(doc.id(), turn.start(), turn.end());
        }
        int[] span = TextLocator.find(doc.text(), evidence);
        return span == null ? null : new DocSpan(doc.id(), span[0], span[1]);
    }

    record Scores(Double f1, Double em, Double rougeL, Double accuracy) {}

    static Scores score(EvalItem item, String answer, Integer choice) {
        if (item.dataset().equals("locomo")) {
            int category = Integer.parseInt(item.category());
            String gold = item.answers().isEmpty() ? "" : item.answers().getFirst();
            return new Scores(
                    Metrics.locomoF1(answer, gold, category),
                    Metrics.locomoExactMatch(answer, gold, category),
                    category == 5 ? null : Metrics.rougeL(answer, gold),
                    null);
        }
        if (item.dataset().equals("ruler")) {
            return new Scores(null, null, null, Metrics.rulerStringMatchAll(answer, item.answers()));
        }
        Double accuracy = item.answerIndex() != null ? Metrics.choiceAccuracy(choice, item.answerIndex()) : null;
        if (item.answers().isEmpty()) {
            return new Scores(null, null, null, accuracy);
        }
        return new Scores(
                Metrics.squadF1(answer, item.answers()),
                Metrics.squadExactMatch(answer, item.answers()),
                Metrics.rougeL(answer, item.answers()),
                accuracy);
    }
}
