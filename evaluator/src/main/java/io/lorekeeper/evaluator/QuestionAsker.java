package io.lorekeeper.evaluator;

import static io.lorekeeper.evaluator.EvalRunner.SEARCH_PREFIX;

import java.util.ArrayList;
import java.util.List;

import io.lorekeeper.evaluator.EvalRunner.Asked;
import io.lorekeeper.evaluator.EvalRunner.Cost;
import io.lorekeeper.evaluator.EvalRunner.Evidence;
import io.lorekeeper.evaluator.EvalRunner.ItemResult;
import io.lorekeeper.evaluator.EvalRunner.Reply;
import io.lorekeeper.evaluator.EvalRunner.Request;
import io.lorekeeper.evaluator.EvalRunner.Scores;
import io.lorekeeper.evaluator.EvalRunner.Timings;
import io.lorekeeper.evaluator.Metrics.DocSpan;
import io.lorekeeper.text.TokenCounter;
import tools.jackson.databind.JsonNode;

/**
 * One question with one strategy against the service, and its scores: the answer against the gold answers, the
 * context the strategy used (its trace, its citations; a search probe: its hits) against the gold evidence, cost and
 * latency. {@link EvalRunner} schedules these and collects what they return.
 */
final class QuestionAsker {

    private final ServiceClient client;
    private final Grader judge;

    /** @param judge grades every answer that came back DONE; null: no LLM judge */
    QuestionAsker(ServiceClient client, Grader judge) {
        this.client = client;
        this.judge = judge;
    }

    /** One question with one strategy; any failure but an interrupt becomes the result's error. */
    ItemResult ask(Request request, EvalItem item, String strategy, IngestedDocument doc, GoldEvidence evidence)
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
            return answered(item, strategy, doc, evidence, view, (System.nanoTime() - started) / 1_000_000);
        } catch (RuntimeException e) {
            if (Thread.currentThread().isInterrupted()) {
                // Stopped, not failed (the replica is shutting down): no result, so a resume asks again.
                throw new InterruptedException("evaluation interrupted");
            }
            long latency = (System.nanoTime() - started) / 1_000_000;
            return new ItemResult(
                    Asked.of(item, strategy),
                    Reply.failed(null, "ERROR", String.valueOf(e.getMessage())),
                    Scores.NONE,
                    new Evidence(null, gold.size(), unresolved, 0, null, null),
                    Cost.UNKNOWN,
                    new Timings(latency, null));
        }
    }

    /** Scores an answered question against its gold answer and evidence, from the answer and its trace. */
    private ItemResult answered(
            EvalItem item, String strategy, IngestedDocument doc, GoldEvidence evidence, JsonNode view, long latency) {
        List<DocSpan> gold = evidence.spans();
        int unresolved = evidence.unresolved();
        String questionId = view.path("id").asString();
        String status = view.path("status").asString();
        JsonNode trace = client.trace(questionId);
        List<DocSpan> context = context(view, trace, doc);
        Cost cost = Cost.of(view, trace);
        int contextTokens = Compaction.contextTokens(doc.text(), doc.id(), context);
        Double compaction = Compaction.ratio(TraceSpans.compaction(trace, doc.id()), contextTokens, doc.tokens());
        Long runMs = view.path("timings").has("runMs")
                ? view.path("timings").path("runMs").asLong()
                : null;
        Asked asked = Asked.of(item, strategy);
        Evidence seen = new Evidence(null, gold.size(), unresolved, context.size(), contextTokens, compaction);
        Timings timings = new Timings(latency, runMs);
        if (!status.equals("DONE")) {
            return new ItemResult(
                    asked,
                    Reply.failed(questionId, status, view.path("failureReason").asString(status)),
                    Scores.NONE,
                    seen,
                    cost,
                    timings);
        }
        String answer = view.path("answer").asString("");
        Integer choice =
                view.hasNonNull("choiceIndex") ? view.get("choiceIndex").asInt() : null;
        ItemResult result = new ItemResult(
                asked,
                new Reply(
                        questionId,
                        status,
                        answer,
                        choice,
                        null,
                        view.hasNonNull("confidence") ? view.get("confidence").asDouble() : null,
                        TraceSpans.confidenceFeatures(trace),
                        TraceSpans.answerCandidates(trace),
                        view.path("answerKind").asString(null),
                        item.answers().isEmpty() ? null : Metrics.holdsAnswer(item.answers(), answer, quotes(view)),
                        TraceSpans.passageFeatures(trace),
                        withheld(item, trace)),
                score(item, answer, choice),
                new Evidence(
                        Metrics.evidenceRecall(gold, context),
                        gold.size(),
                        unresolved,
                        context.size(),
                        contextTokens,
                        compaction,
                        Metrics.answerInContext(item.answers(), Metrics.texts(doc.text(), doc.id(), context))),
                cost,
                timings);
        return judge != null && Grader.applies(item) ? result.judged(judge.grade(item, answer)) : result;
    }

    private ItemResult probe(
            Request request,
            EvalItem item,
            String strategy,
            IngestedDocument doc,
            List<DocSpan> gold,
            int unresolved,
            long started) {
        String mode = strategy.substring(SEARCH_PREFIX.length());
        JsonNode found = client.search(List.of(doc.id()), item.question(), mode, request.searchK());
        long latency = (System.nanoTime() - started) / 1_000_000;
        List<DocSpan> context = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        int tokens = 0;
        for (JsonNode hit : found.path("hits")) {
            String text = hit.path("text").asString("");
            int more = TokenCounter.count(text);
            if (request.searchTokens() > 0 && tokens + more > request.searchTokens()) {
                break; // a budget, not a target: the context a caller with this many tokens would pass on
            }
            context.add(new DocSpan(
                    hit.path("documentId").asString(doc.id()),
                    hit.path("start").asInt(),
                    hit.path("end").asInt()));
            texts.add(text);
            tokens += more;
        }
        return new ItemResult(
                Asked.of(item, strategy),
                new Reply(null, "DONE", null, null, null, null, null, null),
                Scores.NONE,
                new Evidence(
                        Metrics.evidenceRecall(gold, context),
                        gold.size(),
                        unresolved,
                        context.size(),
                        tokens,
                        Compaction.ratio(null, tokens, doc.tokens()),
                        Metrics.answerInContext(item.answers(), texts)),
                Cost.NONE,
                new Timings(latency, null));
    }

    /** The context the strategy used: the spans its trace retrieved or put in context, and its citations. */
    private static List<DocSpan> context(JsonNode view, JsonNode trace, IngestedDocument doc) {
        List<DocSpan> context = new ArrayList<>(TraceSpans.context(trace, doc.id()));
        for (JsonNode c : view.path("citations")) {
            context.add(new DocSpan(
                    c.path("documentId").asString(doc.id()),
                    c.path("start").asInt(),
                    c.path("end").asInt()));
        }
        return context;
    }

    /** The short answer a passage answer withheld, scored as the answer would have been; null when none was. */
    private static Reply.Withheld withheld(EvalItem item, JsonNode trace) {
        JsonNode event = TraceSpans.payload(trace, "extractive.passages");
        if (event == null || !event.hasNonNull("withheld")) {
            return null;
        }
        String text = event.get("withheld").asString();
        return new Reply.Withheld(
                text,
                event.path("withheldConfidence").asDouble(),
                score(item, text, null).f1());
    }

    /** The quotes of the question's citations. */
    private static List<String> quotes(JsonNode view) {
        List<String> quotes = new ArrayList<>();
        view.path("citations").forEach(c -> quotes.add(c.path("quote").asString("")));
        return quotes;
    }

    /**
     * The answer's scores against the item's gold answers, as its dataset scores them; {@link SpanRankerFit} scores
     * each answer candidate with it too.
     */
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
