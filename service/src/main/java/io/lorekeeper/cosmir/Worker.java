package io.lorekeeper.cosmir;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

import io.lorekeeper.llm.LlmSession;
import io.lorekeeper.llm.Role;
import io.lorekeeper.llm.UnusableReplyException;
import io.lorekeeper.strategy.ChunkedReading.Chunk;
import io.lorekeeper.strategy.QuoteResolver;
import io.lorekeeper.strategy.SpanLocator;
import io.lorekeeper.strategy.StepEvent;
import io.lorekeeper.strategy.Trace;
import io.lorekeeper.text.Span;
import io.lorekeeper.text.TokenCounter;

/**
 * The planner and the worker's fixed micro-cycle over one chunk (Algorithm 1, lines 1 and 5-10):
 * EXTRACT the chunk's new facts, each quote resolved to a span of the chunk; PRUNE the gathered
 * facts oldest first to the cap; INFER new facts from the memory, each resting on facts it holds;
 * REFINE the open questions. Every step records what it changed in the trace, and a step whose reply
 * is unusable changes nothing and says so.
 */
final class Worker {

    /** Calls of one micro-cycle: extract, infer, refine. */
    static final int CALLS_PER_CHUNK = 3;

    private final LlmSession llm;
    private final Trace trace;
    private final Memory memory;
    private final String query;
    private final CosmirSettings settings;
    private final int capTokens;
    private final int documents;

    Worker(LlmSession llm, Trace trace, Memory memory, String query, CosmirSettings settings, int documents) {
        this.llm = llm;
        this.trace = trace;
        this.memory = memory;
        this.query = query;
        this.settings = settings;
        this.capTokens = settings.memoryTokens();
        this.documents = documents;
    }

    /** Words of reply text that fit {@code tokens}, for the prompts' length guidance (about 0.75 words a token). */
    static int words(int tokens) {
        return Math.max(1, tokens * 3 / 4);
    }

    /** PLANNER: seeds the open questions; the query itself is the only question when the planner gives nothing usable. */
    void plan() {
        Replies.Plan reply = ask(Role.PLANNER, "plan", 0, Map.of("query", query), Replies.Plan.class, PlainText::plan);
        List<String> questions = reply == null ? List.of() : cleaned(reply.questions());
        boolean fallback = questions.isEmpty();
        int kept = settings.questionsKept(questions.size());
        memory.setQuestions(fallback ? List.of(query) : questions.subList(0, kept));
        trace.record(new CosmirEvent.Plan(
                reply == null || reply.thinking() == null ? "" : reply.thinking(),
                memory.questions(),
                fallback,
                questions.size() - kept));
    }

    /** One micro-cycle over {@code chunk}; the memory snapshot after it goes to the trace. */
    void read(Chunk chunk) {
        extract(chunk);
        infer(chunk);
        refine(chunk);
        trace.record(CosmirEvent.MemoryAfterChunk.after(chunk.number(), memory.snapshot()));
    }

    private void extract(Chunk chunk) {
        Map<String, Object> vars = new LinkedHashMap<>();
        vars.put("query", query);
        vars.put("memory", memory.render());
        vars.put("chunkLabel", chunk.heading(documents));
        vars.put("chunk", chunk.text());
        vars.put("maxWords", words(settings.extractTokens()));
        Replies.Extracted reply =
                ask(Role.RESEARCHER, "extract", chunk.number(), vars, Replies.Extracted.class, PlainText::extracted);
        List<String> added = new ArrayList<>();
        List<String> unlocated = new ArrayList<>();
        Map<String, Integer> found = new TreeMap<>();
        int repeated = 0;
        List<Replies.Extracted.NewFact> items = reply == null ? List.<Replies.Extracted.NewFact>of() : reply.facts();
        int overLimit = 0;
        int addedTokens = 0;
        Set<String> held = new java.util.HashSet<>(
                memory.gathered().stream().map(f -> normalised(f.text())).toList());
        for (Replies.Extracted.NewFact item : items) {
            if (!held.add(normalised(item.fact()))) {
                repeated++;
                continue;
            }
            Fact.Evidence evidence = locate(item.quote(), chunk, found);
            Fact candidate = memory.gatherable(item.fact().strip(), chunk.number(), item.quote(), evidence);
            // Beyond the bound the reply was asked to keep to, facts would only push out the ones before them.
            if (addedTokens + candidate.tokens() > settings.extractTokens()) {
                overLimit++;
                continue;
            }
            addedTokens += candidate.tokens();
            Fact fact = memory.gather(item.fact().strip(), chunk.number(), item.quote(), evidence);
            added.add(fact.id());
            if (evidence == null) {
                unlocated.add(fact.id());
            }
        }
        List<Fact> pruned = memory.pruneGathered(capTokens);
        trace.record(new CosmirEvent.Extract(
                chunk.number(),
                chunk.documentId(),
                List.of(chunk.span().start(), chunk.span().end()),
                added,
                unlocated,
                found,
                repeated,
                overLimit,
                pruned.stream().map(Memory::view).toList(),
                memory.gatheredTokens(),
                capTokens));
    }

    /**
     * Where a fact's quote lies: in the chunk (exactly, up to whitespace, case and punctuation, or
     * approximately), else, verbatim up to whitespace, in what was read of the document before it,
     * since workers sometimes quote a passage that an earlier chunk held.
     */
    private static Fact.Evidence locate(String quote, Chunk chunk, Map<String, Integer> found) {
        Optional<Span> span = QuoteResolver.resolve(
                        quote, chunk.text(), chunk.span().start())
                .map(r -> {
                    found.merge(r.method().name().toLowerCase(Locale.ROOT), 1, Integer::sum);
                    return r.span();
                });
        if (span.isEmpty()) {
            span = SpanLocator.locate(quote, chunk.before(), 0);
            span.ifPresent(s -> found.merge("earlier-chunk", 1, Integer::sum));
        }
        return span.map(s -> new Fact.Evidence(chunk.documentId(), s, s.of(chunk.documentText())))
                .orElse(null);
    }

    private void infer(Chunk chunk) {
        int bound = settings.inferredTokens(TokenCounter.count(String.join("\n", memory.questions())));
        // One reply's conclusions: no more than the inferred facts may hold, nor than the output limit carries.
        int replyBound = Math.min(bound, settings.extractTokens());
        Map<String, Object> vars = Map.of("query", query, "memory", memory.render(), "maxWords", words(replyBound));
        Replies.Inferred reply =
                ask(Role.RESEARCHER, "infer", chunk.number(), vars, Replies.Inferred.class, PlainText::inferred);
        List<String> added = new ArrayList<>();
        Set<String> unknownIds = new LinkedHashSet<>();
        int ungrounded = 0;
        List<Replies.Inferred.Inference> items =
                reply == null ? List.<Replies.Inferred.Inference>of() : reply.inferred();
        int overLimit = 0;
        int addedTokens = 0;
        for (Replies.Inferred.Inference item : items) {
            List<String> basis = new ArrayList<>();
            for (String raw : item.basis()) {
                String id = factId(raw);
                if (memory.holds(id)) {
                    if (!basis.contains(id)) {
                        basis.add(id);
                    }
                } else {
                    unknownIds.add(raw);
                }
            }
            if (basis.isEmpty()) {
                ungrounded++;
                continue;
            }
            int tokens = Fact.inferred("I?", item.fact().strip(), chunk.number(), basis)
                    .tokens();
            if (addedTokens + tokens > replyBound) {
                overLimit++;
                continue;
            }
            addedTokens += tokens;
            added.add(memory.infer(item.fact().strip(), chunk.number(), basis).id());
        }
        List<Fact> pruned = memory.pruneInferred(bound);
        trace.record(new CosmirEvent.Infer(
                chunk.number(),
                added,
                ungrounded,
                overLimit,
                List.copyOf(unknownIds),
                pruned.stream().map(Memory::view).toList(),
                memory.inferredTokens()));
    }

    private void refine(Chunk chunk) {
        Map<String, Object> vars = new LinkedHashMap<>();
        vars.put("query", query);
        vars.put("memory", memory.render());
        vars.put(
                "lengthRule",
                settings.maxQuestions() == 0
                        ? "Keep only questions that still matter for the main question, the most useful first."
                        : "Keep the list short: at most " + settings.maxQuestions()
                                + " questions, the most useful for the main question first.");
        Replies.Refined reply =
                ask(Role.RESEARCHER, "refine", chunk.number(), vars, Replies.Refined.class, PlainText::refined);
        List<String> before = memory.questions();
        List<String> after = reply == null ? before : cleaned(reply.questions());
        int kept = settings.questionsKept(after.size());
        int cut = after.size() - kept;
        after = after.subList(0, kept);
        memory.setQuestions(after);
        List<String> open = after;
        trace.record(new CosmirEvent.Refine(
                chunk.number(),
                before.stream().filter(q -> !open.contains(q)).toList(),
                after.stream().filter(q -> !before.contains(q)).toList(),
                after.size(),
                cut));
    }

    /**
     * One step's call. A reply with nothing usable (after the gateway's repair), or cut at the output
     * limit with nothing complete, changes nothing and is traced as {@code step.failed}; a spent budget
     * and a failing endpoint are not this step's to absorb.
     */
    /**
     * One call of a step, its prompt the template {@code cosmir/<step>}; null when the reply is unusable,
     * which the trace records (the planner, chunk 0, reads no chunk).
     */
    private <T> T ask(
            Role role, String step, int chunk, Map<String, ?> vars, Class<T> type, Function<String, T> fromPlainText) {
        try {
            return llm.structuredOrText(role, "cosmir/" + step, vars, type, fromPlainText);
        } catch (UnusableReplyException unusable) {
            trace.record(new StepEvent.Failed(step, null, chunk == 0 ? null : chunk, unusable.getMessage()));
            return null;
        }
    }

    /** A fact id as the model may write it ("[G3]", "g3", "G3 ") in the memory's own form. */
    static String factId(String raw) {
        return raw == null ? "" : raw.replaceAll("[\\[\\]\\s]", "").toUpperCase(Locale.ROOT);
    }

    private static List<String> cleaned(List<String> questions) {
        return questions.stream()
                .filter(q -> q != null && !q.isBlank())
                .map(String::strip)
                .distinct()
                .toList();
    }

    private static String normalised(String fact) {
        return fact.strip().toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
    }
}
