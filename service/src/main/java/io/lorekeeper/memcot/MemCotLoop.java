package io.lorekeeper.memcot;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import io.lorekeeper.document.DocumentKind;
import io.lorekeeper.document.search.SearchHit;
import io.lorekeeper.llm.BudgetExhaustedException;
import io.lorekeeper.llm.LlmSession;
import io.lorekeeper.llm.NumberedMarkup;
import io.lorekeeper.llm.PromptMarkup;
import io.lorekeeper.llm.Role;
import io.lorekeeper.llm.UnusableReplyException;
import io.lorekeeper.strategy.BudgetGate;
import io.lorekeeper.strategy.QuestionContext;
import io.lorekeeper.strategy.StepEvent;

/**
 * The test-time loop of one question (seed 002, Eqs. 6 and 7): per step, zoom-in (top-K for every
 * query, the focused reader keeps the useful hits and names what is missing), zoom-out (±W units
 * around each kept hit within its session or page, the wide reader keeps what adds context), the
 * judge (keep which candidates, can it answer, and if not BREAK or DELETE with new queries), and the
 * evolution of the short-term memory. Every step is written to the trace with the memory after it.
 */
final class MemCotLoop {

    /** Why the loop ended. */
    enum Stop {
        ANSWERABLE,
        MAX_STEPS,
        NO_NEW_QUERIES,
        JUDGE_FAILED,
        BUDGET
    }

    record Outcome(ShortTermMemory memory, Stop stop, String lastThinking, int steps) {
        boolean budgetLimited() {
            return stop == Stop.BUDGET;
        }
    }

    private final QuestionContext context;
    private final MemCotSettings settings;
    private final Units units;
    private final LlmSession perceivers;
    private final LlmSession critic;
    private final ShortTermMemory memory = new ShortTermMemory();
    private final Map<UUID, DocumentKind> kinds = new LinkedHashMap<>();

    MemCotLoop(QuestionContext context, MemCotSettings settings, Units units) {
        this.context = context;
        this.settings = settings;
        this.units = units;
        this.perceivers = context.llm().atTemperature(settings.perceptionTemperature());
        // The judge decides when to stop and what to search next: it must be deterministic (and cacheable).
        this.critic = context.llm().atTemperature(0.0);
        context.documents().forEach(d -> kinds.put(d.id(), d.kind()));
    }

    // the loop's state between steps
    private int step;
    private List<String> queries;
    private List<String> previous = List.of();
    private String lastAction = "none";
    private String lastThinking = "";

    Outcome run() {
        queries = List.of(context.question());
        try {
            Outcome outcome = null;
            while (outcome == null) {
                step++;
                outcome = step();
            }
            return outcome;
        } catch (BudgetExhaustedException spent) {
            // a call refused all the same (tokens spent by a long reply, say): the responder answers from the memory
            context.trace().record(new StepEvent.BudgetSpent("loop", step, spent.getMessage()));
            return end(Stop.BUDGET);
        }
    }

    /** What the readers found in one step: the focused reader's perception, the units it kept, those the wide reader added. */
    private record Read(Perception zoomIn, List<Unit> kept, List<Unit> widened) {

        /** The kept units, then the widened ones not among them: what the judge weighs. */
        List<Unit> candidates() {
            List<Unit> candidates = new ArrayList<>(kept);
            widened.stream().filter(u -> !candidates.contains(u)).forEach(candidates::add);
            return candidates;
        }
    }

    /** One step: read (zoom-in, zoom-out), judge, evolve the memory, plan the next queries; the outcome when the loop ends here. */
    private Outcome step() {
        if (!mayStart(step, "zoom-in", 1)) {
            return new Outcome(memory, Stop.BUDGET, lastThinking, step - 1);
        }
        context.trace().record(new MemCotEvent.Queries(step, queries));
        Read read = read();
        if (!mayStart(step, "judge", 1)) {
            return withoutVerdict(read, Stop.BUDGET);
        }
        Judgement judgement = judge(
                step,
                queries,
                units.inDocumentOrder(read.candidates()),
                read.zoomIn().missingInformation(),
                lastAction);
        if (judgement == null) {
            // without a verdict there is no one to plan the next step
            return withoutVerdict(read, Stop.JUDGE_FAILED);
        }
        return afterVerdict(read, judgement);
    }

    /** Zoom-in over the queries' new hits, then zoom-out around the units it kept. */
    private Read read() {
        List<Unit> fresh = zoomInCandidates(queries);
        Perception zoomIn = zoomIn(step, queries, previous, fresh);
        List<Unit> kept = units.select(zoomIn.usefulIds(), fresh).units();
        // zoom-out and the judge must both fit; without room for both, the step goes straight to the judge
        List<Unit> widened = settings.zoomOut() && !kept.isEmpty() && mayStart(step, "zoom-out", 2)
                ? zoomOut(step, queries, kept)
                : List.of();
        return new Read(zoomIn, kept, widened);
    }

    /** No verdict can be had: the readers' own picks stand, and the loop ends. */
    private Outcome withoutVerdict(Read read, Stop stop) {
        evolve(read, "", memory.add(read.candidates()), false);
        return end(stop);
    }

    /** The judge's picks go into the memory; the loop ends when it can answer, else goes on with the next queries. */
    private Outcome afterVerdict(Read read, Judgement judgement) {
        List<Unit> added = memory.add(
                units.select(judgement.usefulIds(), read.candidates()).units());
        evolve(read, judgement.thinking(), added, judgement.canAnswer());
        lastThinking = judgement.thinking();
        if (judgement.canAnswer()) {
            return end(Stop.ANSWERABLE);
        }
        if (step >= settings.maxSteps()) {
            return end(Stop.MAX_STEPS);
        }
        String action = judgement.action() == null ? "none" : judgement.action().name();
        NextQueries.Next next = nextQueries(step, queries, judgement, action);
        // the authors' code asks the judge again while its queries only repeat failed ones
        for (int ask = 1; next.queries().isEmpty() && ask <= settings.reasks(); ask++) {
            if (!mayStart(step, "judge", 1)) {
                return end(Stop.BUDGET);
            }
            Judgement again = judge(
                    step,
                    queries,
                    units.inDocumentOrder(read.candidates()),
                    read.zoomIn().missingInformation(),
                    lastAction,
                    refused(judgement, next));
            if (again == null) {
                break;
            }
            if (again.canAnswer()) {
                memory.add(units.select(again.usefulIds(), read.candidates()).units());
                lastThinking = again.thinking();
                return end(Stop.ANSWERABLE);
            }
            judgement = again;
            action = judgement.action() == null ? "none" : judgement.action().name();
            next = nextQueries(step, queries, judgement, action);
        }
        if (next.queries().isEmpty()) {
            return end(Stop.NO_NEW_QUERIES);
        }
        previous = queries;
        queries = next.queries();
        lastAction = action;
        return null;
    }

    private Outcome end(Stop stop) {
        return new Outcome(memory, stop, lastThinking, step);
    }

    /** The queries of the next step after the judge's action (BREAK, DELETE), traced. */
    private NextQueries.Next nextQueries(int step, List<String> queries, Judgement judgement, String action) {
        NextQueries.Next next =
                NextQueries.after(queries, judgement, memory, context.question(), settings.maxQueries());
        context.trace()
                .record(new MemCotEvent.QueriesNext(
                        step,
                        action,
                        next.queries(),
                        next.repeats(),
                        next.settled(),
                        next.unknownSettled(),
                        next.fellBack()));
        return next;
    }

    /**
     * Whether a part of a step ({@code calls} calls) can start and finish before the answer's reserve of
     * the budget, and the question still has time; if not, a {@code step.budget} event says why, and the
     * loop stops (zoom-in, judge) or skips that part (zoom-out).
     */
    private boolean mayStart(int step, String phase, int calls) {
        return BudgetGate.of(context).mayStart(phase, step, calls);
    }

    private void failed(int step, String phase, UnusableReplyException unusable) {
        context.trace().record(new StepEvent.Failed(phase, step, unusable.getMessage()));
    }

    /** The top-K hits of every query, once each, without the units the memory already holds. */
    private List<Unit> zoomInCandidates(List<String> queries) {
        Map<String, Unit> found = new LinkedHashMap<>();
        for (String q : queries) {
            for (SearchHit hit : context.retriever().hybrid(context.documentIds(), q, settings.k())) {
                Unit unit = units.of(hit);
                if (!memory.knows(unit)) {
                    found.putIfAbsent(unit.id(), unit);
                }
            }
        }
        return units.inDocumentOrder(found.values());
    }

    private Perception zoomIn(int step, List<String> queries, List<String> previous, List<Unit> fresh) {
        List<MemCotEvent.UnitRef> candidates = fresh.stream().map(Unit::summary).toList();
        if (fresh.isEmpty()) {
            // Nothing new to read: every hit is already in memory.
            context.trace()
                    .record(MemCotEvent.ZoomIn.skipped(
                            step, candidates, "every hit is already in the short-term memory"));
            return Perception.NOTHING;
        }
        Map<String, Object> vars = new LinkedHashMap<>();
        vars.put("question", context.question());
        vars.put("queries", numbered(queries));
        vars.put("previousQueries", previous.isEmpty() ? "(none: this is the first search)" : numbered(previous));
        vars.put("memory", units.render(memory.evidence(), "(nothing yet)"));
        vars.put("results", units.render(fresh, ""));
        Perceived read = perceive(step, "memcot/zoom-in", vars);
        Perception reply = read.reply();
        Units.Selection kept = units.select(reply.usefulIds(), fresh);
        context.trace()
                .record(new MemCotEvent.ZoomIn(
                        step,
                        candidates,
                        null,
                        kept.ids(),
                        kept.unknown(),
                        reply.missingInformation(),
                        reply.thinking(),
                        read.failed()));
        return reply;
    }

    /** The windows around the kept units, merged per page, read by the wide reader; returns the units it adds. */
    private List<Unit> zoomOut(int step, List<String> queries, List<Unit> kept) {
        List<List<Unit>> merged = windowsAround(kept);
        List<Unit> offered = merged.stream()
                .flatMap(List::stream)
                .filter(u -> !kept.contains(u) && !memory.knows(u))
                .toList();
        List<List<String>> windowIds =
                merged.stream().map(run -> run.stream().map(Unit::id).toList()).toList();
        if (offered.isEmpty()) {
            context.trace()
                    .record(MemCotEvent.ZoomOut.skipped(
                            step, windowIds, "the windows hold nothing beyond the kept and known units"));
            return List.of();
        }
        Map<String, Object> vars = new LinkedHashMap<>();
        vars.put("question", context.question());
        vars.put("queries", numbered(queries));
        vars.put("memory", units.render(memory.evidence(), "(nothing yet)"));
        vars.put("windows", renderWindows(merged, kept));
        Perceived read = perceive(step, "memcot/zoom-out", vars);
        Perception reply = read.reply();
        Units.Selection added = units.select(reply.usefulIds(), offered);
        context.trace()
                .record(new MemCotEvent.ZoomOut(
                        step,
                        windowIds,
                        null,
                        added.ids(),
                        added.unknown(),
                        reply.missingInformation(),
                        reply.thinking(),
                        read.failed()));
        return added.units();
    }

    /** The ±W units around each kept unit within its session or page, merged into runs of adjacent chunks, in document order. */
    private List<List<Unit>> windowsAround(List<Unit> kept) {
        Map<String, TreeMap<Integer, Unit>> windows = new LinkedHashMap<>();
        for (Unit centre : kept) {
            SearchHit hit = centre.hit();
            int w = settings.windowFor(kinds.getOrDefault(hit.documentId(), DocumentKind.TEXT));
            for (SearchHit around : context.retriever().neighboursInPage(hit.documentId(), hit.chunkOrdinal(), w)) {
                windows.computeIfAbsent(hit.documentId() + ":" + around.pageOrdinal(), k -> new TreeMap<>())
                        .putIfAbsent(around.chunkOrdinal(), units.of(around));
            }
        }
        List<List<Unit>> merged = new ArrayList<>();
        for (TreeMap<Integer, Unit> page : windows.values()) {
            List<Unit> run = new ArrayList<>();
            int last = Integer.MIN_VALUE;
            for (Map.Entry<Integer, Unit> e : page.entrySet()) {
                if (!run.isEmpty() && e.getKey() != last + 1) {
                    merged.add(run);
                    run = new ArrayList<>();
                }
                run.add(e.getValue());
                last = e.getKey();
            }
            if (!run.isEmpty()) {
                merged.add(run);
            }
        }
        merged.sort(java.util.Comparator.comparing(List::getFirst, units.order()));
        return merged;
    }

    /**
     * A perception call. Prose instead of JSON still counts for the ids it names; a reply with nothing
     * usable at all (after the gateway's repair) keeps nothing, and the loop goes on to the judge.
     */
    private Perceived perceive(int step, String template, Map<String, Object> vars) {
        try {
            return new Perceived(
                    perceivers.structuredOrText(
                            Role.RESEARCHER, template, vars, Perception.class, Perception::fromProse),
                    null);
        } catch (UnusableReplyException unusable) {
            failed(step, template.substring(template.indexOf('/') + 1), unusable);
            return new Perceived(Perception.NOTHING, unusable.getMessage());
        }
    }

    /** A reader's perception, and why its reply was unusable (null when it was usable). */
    private record Perceived(Perception reply, String failed) {}

    /** What the judge is told when asked again: the queries of its last verdict that were searched before, in vain. */
    private static String refused(Judgement judgement, NextQueries.Next next) {
        List<String> proposed = next.repeats().isEmpty() ? judgement.newQueries() : next.repeats();
        return "\n\nYour last reply proposed no search that has not already failed"
                + (proposed.isEmpty() ? " (it proposed none)" : ": " + String.join(" | ", proposed))
                + ". Propose different queries: other words, a single keyword or phrase, a related person, event or date.";
    }

    /** The judge's verdict, or null when its reply had nothing usable. */
    private Judgement judge(int step, List<String> queries, List<Unit> candidates, String missing, String lastAction) {
        return judge(step, queries, candidates, missing, lastAction, "");
    }

    private Judgement judge(
            int step, List<String> queries, List<Unit> candidates, String missing, String lastAction, String retry) {
        Map<String, Object> vars = new LinkedHashMap<>();
        vars.put("retry", retry);
        vars.put("question", context.question());
        vars.put("queries", numbered(queries));
        vars.put("memory", units.render(memory.evidence(), "(nothing yet)"));
        vars.put("candidates", units.render(candidates, "(no new candidates this step)"));
        vars.put("missing", missing.isBlank() ? "(not stated)" : missing);
        vars.put("failures", failures());
        vars.put("lastAction", lastAction);
        vars.put("maxQueries", settings.maxQueries());
        Judgement verdict;
        try {
            verdict = critic.structuredOrText(Role.CRITIC, "memcot/judge", vars, Judgement.class, Judgement::fromProse);
        } catch (UnusableReplyException unusable) {
            context.trace().record(MemCotEvent.Judge.failed(step, unusable.getMessage()));
            failed(step, "judge", unusable);
            return null;
        }
        // Ids of evidence already in memory are fine to repeat; only ids naming neither are unknown.
        List<Unit> nameable = new ArrayList<>(candidates);
        nameable.addAll(memory.evidence());
        Units.Selection useful = units.select(verdict.usefulIds(), nameable);
        context.trace()
                .record(new MemCotEvent.Judge(
                        step,
                        null,
                        verdict.canAnswer(),
                        verdict.action() == null ? "none" : verdict.action().name(),
                        useful.ids(),
                        useful.unknown(),
                        verdict.newQueries(),
                        verdict.resolved(),
                        verdict.thinking()));
        return verdict;
    }

    /**
     * Writes the step into the episodic memory, and into the failed queue when it added nothing and
     * the question is still open, and traces the memory after it.
     */
    private void evolve(Read read, String thinking, List<Unit> added, boolean answerable) {
        boolean failed = added.isEmpty() && !answerable;
        List<String> addedIds = added.stream().map(Unit::id).toList();
        String missing = read.zoomIn().missingInformation();
        memory.record(new ShortTermMemory.Step(
                step,
                queries,
                lastAction,
                read.kept().stream().map(Unit::id).toList(),
                read.widened().stream().map(Unit::id).toList(),
                missing,
                thinking,
                addedIds));
        if (failed) {
            memory.fail(new ShortTermMemory.Failure(step, queries, lastAction, missing));
        }
        context.trace()
                .record(new MemCotEvent.MemoryUpdate(
                        step,
                        addedIds,
                        failed,
                        units.inDocumentOrder(memory.evidence()).stream()
                                .map(Unit::summary)
                                .toList(),
                        memory.recentFailures()));
    }

    private PromptMarkup renderWindows(List<List<Unit>> windows, List<Unit> kept) {
        List<NumberedMarkup.Block> blocks = new java.util.ArrayList<>();
        for (List<Unit> run : windows) {
            StringBuilder units = new StringBuilder();
            for (Unit u : run) {
                String mark = kept.contains(u) ? " selected=\"yes\"" : memory.knows(u) ? " known=\"yes\"" : "";
                Units.append(units, u, mark);
            }
            // the units' markup, less the line break the block adds before its closing tag
            blocks.add(NumberedMarkup.Block.of(PromptMarkup.of(units.toString().stripTrailing())));
        }
        return PromptMarkup.of(NumberedMarkup.render("context", blocks).text().stripTrailing());
    }

    private String failures() {
        List<ShortTermMemory.Failure> recent = memory.recentFailures();
        if (recent.isEmpty()) {
            return "(none)";
        }
        StringBuilder out = new StringBuilder();
        for (ShortTermMemory.Failure f : recent) {
            out.append("- step ")
                    .append(f.step())
                    .append(", after action ")
                    .append(f.lastAction())
                    .append(": searched ")
                    .append(String.join(" | ", f.queries()))
                    .append("; still missing: ")
                    .append(f.missing().isBlank() ? "(not stated)" : f.missing())
                    .append('\n');
        }
        return out.toString().stripTrailing();
    }

    private static String numbered(List<String> queries) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < queries.size(); i++) {
            out.append(i + 1).append(". ").append(queries.get(i)).append('\n');
        }
        return out.toString().stripTrailing();
    }
}
