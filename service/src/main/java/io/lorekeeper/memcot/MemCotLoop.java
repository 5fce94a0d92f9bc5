package io.lorekeeper.memcot;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import io.lorekeeper.document.DocumentKind;
import io.lorekeeper.llm.BudgetExhaustedException;
import io.lorekeeper.llm.LlmSession;
import io.lorekeeper.llm.PromptMarkup;
import io.lorekeeper.llm.Role;
import io.lorekeeper.llm.UnusableReplyException;
import io.lorekeeper.retrieval.SearchHit;
import io.lorekeeper.strategy.QuestionContext;

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

    Outcome run() {
        List<String> queries = List.of(context.question());
        List<String> previous = List.of();
        String lastAction = "none";
        String lastThinking = "";
        int step = 0;
        try {
            while (true) {
                step++;
                if (!mayStart(step, "zoom-in", 1)) {
                    return new Outcome(memory, Stop.BUDGET, lastThinking, step - 1);
                }
                context.trace().record("queries", Map.of("step", step, "queries", queries));
                List<Unit> fresh = zoomInCandidates(queries);
                Perception zoomIn = zoomIn(step, queries, previous, fresh);
                List<Unit> kept = units.select(zoomIn.usefulIds(), fresh).units();
                // zoom-out and the judge must both fit; without room for both, the step goes straight to the judge
                List<Unit> widened = settings.zoomOut() && !kept.isEmpty() && mayStart(step, "zoom-out", 2, false)
                        ? zoomOut(step, queries, kept)
                        : List.of();
                List<Unit> candidates = new ArrayList<>(kept);
                widened.stream().filter(u -> !candidates.contains(u)).forEach(candidates::add);
                if (!mayStart(step, "judge", 1)) {
                    // no verdict can be had: the readers' own picks stand
                    List<Unit> added = memory.add(candidates);
                    evolve(step, queries, lastAction, zoomIn, kept, widened, "", added, false);
                    return new Outcome(memory, Stop.BUDGET, lastThinking, step);
                }

                Judgement judgement = judge(
                        step, queries, units.inDocumentOrder(candidates), zoomIn.missingInformation(), lastAction);
                if (judgement == null) {
                    // Without a verdict the readers' own picks stand, and there is no one to plan the next step.
                    List<Unit> added = memory.add(candidates);
                    evolve(step, queries, lastAction, zoomIn, kept, widened, "", added, false);
                    return new Outcome(memory, Stop.JUDGE_FAILED, lastThinking, step);
                }
                List<Unit> added = memory.add(
                        units.select(judgement.usefulIds(), candidates).units());
                String action = judgement.canAnswer()
                        ? "ANSWER"
                        : judgement.action() == null
                                ? "none"
                                : judgement.action().name();
                evolve(
                        step,
                        queries,
                        lastAction,
                        zoomIn,
                        kept,
                        widened,
                        judgement.thinking(),
                        added,
                        judgement.canAnswer());
                lastThinking = judgement.thinking();
                if (judgement.canAnswer()) {
                    return new Outcome(memory, Stop.ANSWERABLE, lastThinking, step);
                }
                if (step >= settings.maxSteps()) {
                    return new Outcome(memory, Stop.MAX_STEPS, lastThinking, step);
                }
                NextQueries.Next next = nextQueries(step, queries, judgement, action);
                if (next.queries().isEmpty()) {
                    return new Outcome(memory, Stop.NO_NEW_QUERIES, lastThinking, step);
                }
                previous = queries;
                queries = next.queries();
                lastAction = action;
            }
        } catch (BudgetExhaustedException spent) {
            // a call refused all the same (tokens spent by a long reply, say): the responder answers from the memory
            context.trace().record("budget", Map.of("step", step, "reason", spent.getMessage()));
            return new Outcome(memory, Stop.BUDGET, lastThinking, step);
        }
    }

    /** The queries of the next step after the judge's action (BREAK, DELETE), traced. */
    private NextQueries.Next nextQueries(int step, List<String> queries, Judgement judgement, String action) {
        NextQueries.Next next =
                NextQueries.after(queries, judgement, memory, context.question(), settings.maxQueries());
        Map<String, Object> planned = new LinkedHashMap<>();
        planned.put("step", step);
        planned.put("action", action);
        planned.put("next", next.queries());
        planned.put("droppedRepeats", next.repeats());
        planned.put("settled", next.settled());
        planned.put("unknownSettled", next.unknownSettled());
        planned.put("fellBackToQuestion", next.fellBack());
        context.trace().record("queries.next", planned);
        return next;
    }

    private boolean mayStart(int step, String phase, int calls) {
        return mayStart(step, phase, calls, true);
    }

    /**
     * Whether a part of a step ({@code calls} calls) can start and finish before the answer's reserve of
     * the budget, and the question still has time; if not, a {@code budget} event says why, and the
     * loop stops ({@code stops}) or skips that part.
     */
    private boolean mayStart(int step, String phase, int calls, boolean stops) {
        String reason = context.cancellation().isCancelled()
                ? "the question ran out of wall time"
                : context.llm().budget().stepFits(calls)
                        ? null
                        : context.llm().budget().whyStepDoesNotFit(calls);
        if (reason == null) {
            return true;
        }
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("step", step);
        event.put("phase", phase);
        event.put("reason", reason);
        event.put(stops ? "stopped" : "skipped", true);
        context.trace().record("budget", event);
        return false;
    }

    private void failed(int step, String phase, UnusableReplyException unusable) {
        context.trace().record("step.failed", Map.of("step", phase, "round", step, "reason", unusable.getMessage()));
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
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("step", step);
        event.put("candidates", fresh.stream().map(Unit::summary).toList());
        if (fresh.isEmpty()) {
            // Nothing new to read: every hit is already in memory.
            event.put("skipped", "every hit is already in the short-term memory");
            context.trace().record("zoom-in", event);
            return new Perception("", "", List.of());
        }
        Map<String, Object> vars = new LinkedHashMap<>();
        vars.put("question", context.question());
        vars.put("queries", numbered(queries));
        vars.put("previousQueries", previous.isEmpty() ? "(none: this is the first search)" : numbered(previous));
        vars.put("memory", units.render(memory.evidence(), "(nothing yet)"));
        vars.put("results", units.render(fresh, ""));
        Perception reply = perceive(step, "memcot/zoom-in", vars, event);
        Units.Selection kept = units.select(reply.usefulIds(), fresh);
        event.put("kept", kept.ids());
        event.put("unknownIds", kept.unknown());
        event.put("missing", reply.missingInformation());
        event.put("thinking", reply.thinking());
        context.trace().record("zoom-in", event);
        return reply;
    }

    /** The windows around the kept units, merged per page, read by the wide reader; returns the units it adds. */
    private List<Unit> zoomOut(int step, List<String> queries, List<Unit> kept) {
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
        List<Unit> offered = merged.stream()
                .flatMap(List::stream)
                .filter(u -> !kept.contains(u) && !memory.knows(u))
                .toList();
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("step", step);
        event.put(
                "windows",
                merged.stream().map(run -> run.stream().map(Unit::id).toList()).toList());
        if (offered.isEmpty()) {
            event.put("skipped", "the windows hold nothing beyond the kept and known units");
            context.trace().record("zoom-out", event);
            return List.of();
        }
        Map<String, Object> vars = new LinkedHashMap<>();
        vars.put("question", context.question());
        vars.put("queries", numbered(queries));
        vars.put("memory", units.render(memory.evidence(), "(nothing yet)"));
        vars.put("windows", renderWindows(merged, kept));
        Perception reply = perceive(step, "memcot/zoom-out", vars, event);
        Units.Selection added = units.select(reply.usefulIds(), offered);
        event.put("kept", added.ids());
        event.put("unknownIds", added.unknown());
        event.put("missing", reply.missingInformation());
        event.put("thinking", reply.thinking());
        context.trace().record("zoom-out", event);
        return added.units();
    }

    /**
     * A perception call. Prose instead of JSON still counts for the ids it names; a reply with nothing
     * usable at all (after the gateway's repair) keeps nothing, and the loop goes on to the judge.
     */
    private Perception perceive(int step, String template, Map<String, Object> vars, Map<String, Object> event) {
        try {
            return perceivers.structuredOrText(
                    Role.RESEARCHER, template, vars, Perception.class, Perception::fromProse);
        } catch (UnusableReplyException unusable) {
            event.put("failed", unusable.getMessage());
            failed(step, template.substring(template.indexOf('/') + 1), unusable);
            return new Perception("", "", List.of());
        }
    }

    /** The judge's verdict, or null when its reply had nothing usable. */
    private Judgement judge(int step, List<String> queries, List<Unit> candidates, String missing, String lastAction) {
        Map<String, Object> vars = new LinkedHashMap<>();
        vars.put("question", context.question());
        vars.put("queries", numbered(queries));
        vars.put("memory", units.render(memory.evidence(), "(nothing yet)"));
        vars.put("candidates", units.render(candidates, "(no new candidates this step)"));
        vars.put("missing", missing.isBlank() ? "(not stated)" : missing);
        vars.put("failures", failures());
        vars.put("lastAction", lastAction);
        vars.put("maxQueries", settings.maxQueries());
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("step", step);
        Judgement verdict;
        try {
            verdict = critic.structuredOrText(Role.CRITIC, "memcot/judge", vars, Judgement.class, Judgement::fromProse);
        } catch (UnusableReplyException unusable) {
            event.put("failed", unusable.getMessage());
            context.trace().record("judge", event);
            failed(step, "judge", unusable);
            return null;
        }
        // Ids of evidence already in memory are fine to repeat; only ids naming neither are unknown.
        List<Unit> nameable = new ArrayList<>(candidates);
        nameable.addAll(memory.evidence());
        Units.Selection useful = units.select(verdict.usefulIds(), nameable);
        event.put("canAnswer", verdict.canAnswer());
        event.put("action", verdict.action() == null ? "none" : verdict.action().name());
        event.put("usefulIds", useful.ids());
        event.put("unknownIds", useful.unknown());
        event.put("newQueries", verdict.newQueries());
        event.put("resolved", verdict.resolved());
        event.put("thinking", verdict.thinking());
        context.trace().record("judge", event);
        return verdict;
    }

    /**
     * Writes the step into the episodic memory, and into the failed queue when it added nothing and
     * the question is still open, and traces the memory after it.
     */
    private void evolve(
            int step,
            List<String> queries,
            String lastAction,
            Perception zoomIn,
            List<Unit> kept,
            List<Unit> widened,
            String thinking,
            List<Unit> added,
            boolean answerable) {
        boolean failed = added.isEmpty() && !answerable;
        List<String> addedIds = added.stream().map(Unit::id).toList();
        memory.record(new ShortTermMemory.Step(
                step,
                queries,
                lastAction,
                kept.stream().map(Unit::id).toList(),
                widened.stream().map(Unit::id).toList(),
                zoomIn.missingInformation(),
                thinking,
                addedIds));
        if (failed) {
            memory.fail(new ShortTermMemory.Failure(step, queries, lastAction, zoomIn.missingInformation()));
        }
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("step", step);
        event.put("added", addedIds);
        event.put("failed", failed);
        event.put(
                "semantic",
                units.inDocumentOrder(memory.evidence()).stream()
                        .map(Unit::summary)
                        .toList());
        event.put("failedQueue", memory.recentFailures());
        context.trace().record("memory.update", event);
    }

    private PromptMarkup renderWindows(List<List<Unit>> windows, List<Unit> kept) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < windows.size(); i++) {
            List<Unit> run = windows.get(i);
            out.append("<context n=\"").append(i + 1).append("\">\n");
            for (Unit u : run) {
                String mark = kept.contains(u) ? " selected=\"yes\"" : memory.knows(u) ? " known=\"yes\"" : "";
                Units.append(out, u, mark);
            }
            out.append("</context>\n\n");
        }
        return PromptMarkup.of(out.toString().stripTrailing());
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
