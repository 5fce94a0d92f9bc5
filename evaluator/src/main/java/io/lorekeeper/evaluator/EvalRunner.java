package io.lorekeeper.evaluator;

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

import com.fasterxml.jackson.annotation.JsonUnwrapped;

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
 * <p>With a {@link Grader}, every answer that came back DONE is also graded by the LLM judge. A run
 * can resume: results passed in as already done are kept and their questions not asked again.
 *
 * <p>Here: the result's records (what report.json and the service's {@code evaluation_result} rows hold), the
 * ingestion and the scheduling; one question is asked and scored by {@link QuestionAsker}.
 */
public class EvalRunner {

    private static final Logger log = LoggerFactory.getLogger(EvalRunner.class);
    public static final String SEARCH_PREFIX = "search:";

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
     * The outcome of one question with one strategy, in parts; null metrics do not apply (or failed). Stored and
     * reported flat, the parts' fields side by side ({@code report.json}, the service's {@code evaluation_result}
     * rows): {@code itemId}, {@code f1}, {@code llmCalls}, ... as before the parts existed.
     */
    public record ItemResult(
            @JsonUnwrapped Asked asked,
            @JsonUnwrapped Reply reply,
            @JsonUnwrapped Scores scores,
            @JsonUnwrapped Evidence evidence,
            @JsonUnwrapped Cost cost,
            @JsonUnwrapped Timings timings,
            @JsonUnwrapped Graded graded) {

        public ItemResult {
            graded = graded == null ? Graded.NONE : graded;
        }

        /** A result not (yet) judged. */
        public ItemResult(Asked asked, Reply reply, Scores scores, Evidence evidence, Cost cost, Timings timings) {
            this(asked, reply, scores, evidence, cost, timings, Graded.NONE);
        }

        /** The headline score: choice accuracy for multiple choice, else F1. */
        public Double score() {
            return scores.accuracy() != null ? scores.accuracy() : scores.f1();
        }

        ItemResult judged(Judgement j) {
            return new ItemResult(asked, reply, scores, evidence, cost, timings, new Graded(j.score(), j));
        }

        /** Identifies the result within a run: one per item and strategy. */
        Key key() {
            return new Key(asked.itemId(), asked.strategy());
        }
    }

    /** What was asked: the item (its question and gold answers) and the strategy it was asked of. */
    public record Asked(
            String itemId, String category, String strategy, String question, List<String> gold, Integer answerIndex) {

        static Asked of(EvalItem item, String strategy) {
            return new Asked(item.id(), item.category(), strategy, item.question(), item.answers(), item.answerIndex());
        }
    }

    /**
     * What the service replied.
     *
     * @param questionId the question's id at the service; null for a search probe or a question never accepted
     * @param error why there is no answer (the failure reason, or the client's error); null when DONE
     * @param confidence the confidence the strategy reported with its answer, 0 to 1; null when none
     * @param confidenceFeatures what the strategy based its confidence on (its trace's {@code confidenceFeatures}),
     *                           for fitting a calibrated confidence; null when it recorded none
     * @param answerCandidates the spans the extractive strategy chose its answer among (its trace's
     *                         {@code extractive.candidates}), for fitting the span ranker; null when it recorded none
     */
    public record Reply(
            String questionId,
            String status,
            String answer,
            Integer choiceIndex,
            String error,
            Double confidence,
            Map<String, Double> confidenceFeatures,
            AnswerCandidates answerCandidates,
            String answerKind,
            Boolean holdsAnswer,
            Map<String, Double> passageFeatures,
            Withheld withheld) {

        /**
         * The short answer a passage answer withheld as not certain enough (the trace's {@code extractive.passages}):
         * what the cross-validated report scores, so that it measures the short answers whether or not they were
         * given.
         */
        public record Withheld(String answer, Double confidence, Double f1) {}

        /** A reply of a service or strategy that does not say what kind its answer is. */
        public Reply(
                String questionId,
                String status,
                String answer,
                Integer choiceIndex,
                String error,
                Double confidence,
                Map<String, Double> confidenceFeatures,
                AnswerCandidates answerCandidates) {
            this(
                    questionId,
                    status,
                    answer,
                    choiceIndex,
                    error,
                    confidence,
                    confidenceFeatures,
                    answerCandidates,
                    null,
                    null,
                    null,
                    null);
        }

        static Reply failed(String questionId, String status, String error) {
            return new Reply(questionId, status, null, null, error, null, null, null);
        }

        /** Whether the answer is the passages to read rather than a short answer. */
        boolean passage() {
            return "passage".equals(answerKind);
        }
    }

    /** The answer's scores against the gold answers (which apply depends on the dataset). */
    public record Scores(Double f1, Double em, Double rougeL, Double accuracy) {

        public static final Scores NONE = new Scores(null, null, null, null);
    }

    /**
     * The context the strategy used against the gold evidence.
     *
     * @param goldEvidence gold evidence located in the document; {@code unresolvedEvidence}: not located
     * @param contextSpans the spans of the context (trace and citations; a search probe: its hits)
     * @param contextTokens tokens of that context (overlaps once); null when not measured
     * @param compaction the strategy's own compaction ratio from its trace (MindGraph: first answer-call input ÷
     *                   document tokens), else {@code contextTokens} ÷ document tokens; null when not measured
     */
    public record Evidence(
            Double evidenceRecall,
            int goldEvidence,
            int unresolvedEvidence,
            int contextSpans,
            Integer contextTokens,
            Double compaction,
            Double answerInContext) {

        /** Without an answer-in-context figure: nothing was answered, or the context is not known. */
        public Evidence(
                Double evidenceRecall,
                int goldEvidence,
                int unresolvedEvidence,
                int contextSpans,
                Integer contextTokens,
                Double compaction) {
            this(evidenceRecall, goldEvidence, unresolvedEvidence, contextSpans, contextTokens, compaction, null);
        }
    }

    /**
     * What one answer cost on the model: the question view's {@code usage} (the service's call log); from a service
     * without it, the calls and tokens of the trace's last status event, unsplit.
     *
     * @param llmCalls model calls for the question, cache hits included
     * @param llmTokens prompt plus completion tokens billed (cache hits bill none); without {@code usage}, the trace's
     *               total instead, cache hits included
     * @param promptTokens from the question's {@code usage}; null when the service did not report it
     * @param cacheHits calls answered from the service's response cache; likewise
     */
    public record Cost(long llmCalls, long llmTokens, Long promptTokens, Long completionTokens, Long cacheHits) {

        public static final Cost NONE = new Cost(0, 0, 0L, 0L, 0L);

        /** A question that never got an answer back: its cost is unknown, counted as no calls. */
        public static final Cost UNKNOWN = new Cost(0, 0, null, null, null);

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
     * How long the answer took.
     *
     * @param latencyMs from asking to the answer, as this client saw it
     * @param runMs the strategy's own run time from the question's {@code timings}; null when not reported
     */
    public record Timings(long latencyMs, Long runMs) {}

    /**
     * The LLM judge's grade of the answer.
     *
     * @param judge the score (1 correct, 0 incorrect); null when not judged or the judge failed
     * @param judgement the verdict, reason or error and the judge's own cost; null when not judged
     */
    public record Graded(Double judge, Judgement judgement) {

        public static final Graded NONE = new Graded(null, null);
    }

    record Key(String itemId, String strategy) {}

    /** Hears of the run's progress; {@code finished} gets each new result as soon as it is scored (to store it). */
    public interface Listener {
        void progress(int done, int total);

        default void finished(ItemResult result) {}

        Listener NONE = (done, total) -> {};
    }

    private final ServiceClient client;
    private final Grader judge;
    private final QuestionAsker asker;

    public EvalRunner(ServiceClient client) {
        this(client, null);
    }

    /** @param judge grades every answer when given; null: no LLM judge */
    public EvalRunner(ServiceClient client, Grader judge) {
        this.client = client;
        this.judge = judge;
        this.asker = new QuestionAsker(client, judge);
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
    public Report run(Request request, Collection<ItemResult> earlier, Listener listener) throws InterruptedException {
        Instant started = Instant.now();
        int total = request.items().size() * request.strategies().size();
        Map<Key, ItemResult> previous = new HashMap<>();
        earlier.forEach(r -> previous.put(r.key(), r));
        List<ItemResult> results = Collections.synchronizedList(new ArrayList<>());
        List<EvalItem> pending = pending(request, previous, results);
        AtomicInteger done = new AtomicInteger(results.size());
        listener.progress(done.get(), total);
        if (!results.isEmpty()) {
            log.info("evaluation: resuming with {}/{} questions already done", results.size(), total);
        }
        Map<String, IngestedDocument> docs = ingest(request, pending);
        // Locating gold evidence can scan the whole document (approximate matches): once per item, not per strategy.
        Map<String, GoldEvidence> golds = new ConcurrentHashMap<>();
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
                            IngestedDocument doc = docs.get(item.documentKey());
                            ItemResult result = asker.ask(
                                    request,
                                    item,
                                    strategy,
                                    doc,
                                    golds.computeIfAbsent(item.id(), id -> GoldEvidence.of(item, doc)));
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
        List<ItemResult> sorted = inDatasetOrder(request, results);
        return Report.of(request.dataset(), request.strategies(), started, Instant.now(), sorted, judge != null);
    }

    /** The items some strategy still has to answer; the results kept from an earlier run go to {@code results}. */
    private static List<EvalItem> pending(Request request, Map<Key, ItemResult> previous, List<ItemResult> results) {
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
        return pending;
    }

    /** Stable order: as the dataset lists the items, strategies in the order asked. */
    private static List<ItemResult> inDatasetOrder(Request request, List<ItemResult> results) {
        Map<String, Integer> order = new HashMap<>();
        for (int i = 0; i < request.items().size(); i++) {
            order.put(request.items().get(i).id(), i);
        }
        List<ItemResult> sorted = new ArrayList<>(results);
        sorted.sort((a, b) -> a.asked().itemId().equals(b.asked().itemId())
                ? Integer.compare(
                        request.strategies().indexOf(a.asked().strategy()),
                        request.strategies().indexOf(b.asked().strategy()))
                : Integer.compare(
                        order.get(a.asked().itemId()), order.get(b.asked().itemId())));
        return sorted;
    }

    private Map<String, IngestedDocument> ingest(Request request, List<EvalItem> items) throws InterruptedException {
        Map<String, EvalItem> firsts = new LinkedHashMap<>();
        items.forEach(i -> firsts.putIfAbsent(i.documentKey(), i));
        Map<String, IngestedDocument> docs = new ConcurrentHashMap<>();
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
                    docs.put(entry.getKey(), new IngestedDocument(id, text, TokenCounter.count(text), turns));
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
}
