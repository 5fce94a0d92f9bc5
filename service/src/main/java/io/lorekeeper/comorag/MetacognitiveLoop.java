package io.lorekeeper.comorag;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

import io.lorekeeper.comorag.ComoRagStore.Scored;
import io.lorekeeper.comorag.TriRetriever.LayerResult;
import io.lorekeeper.llm.BudgetExhaustedException;
import io.lorekeeper.llm.LlmSession;
import io.lorekeeper.llm.PromptMarkup;
import io.lorekeeper.llm.Role;
import io.lorekeeper.llm.UnusableReplyException;
import io.lorekeeper.memory.Embeddings;
import io.lorekeeper.strategy.BudgetGate;
import io.lorekeeper.strategy.Citation;
import io.lorekeeper.strategy.LastResort;
import io.lorekeeper.strategy.QuestionContext;
import io.lorekeeper.strategy.StepEvent;
import io.lorekeeper.strategy.StrategyResult;

/**
 * ComoRAG's question loop for one question (paper, Algorithm 1). Step 0: Tri-Retrieve with the
 * question, Try-Answer. On failure, the evidence is encoded into the memory pool, then up to
 * {@code maxCycles} cycles of: Self-Probe (new probes only) → Tri-Retrieve per probe, leaving out
 * evidence already seen → Mem-Encode (a cue per probe and layer) → Mem-Fuse (the half of the pool
 * whose cues are closest to the question, into one background note) → Try-Answer from the new
 * evidence and that note → Mem-Update. Only Try-Answer ever sees the choices of a multiple-choice
 * question. Every step is written to the trace.
 */
final class MetacognitiveLoop {

    static final String PROBE = "comorag/probe";
    static final String ENCODE = "comorag/encode";
    static final String ENCODE_LAYERS = "comorag/encode-layers";
    static final String FUSE = "comorag/fuse";
    static final String ANSWER = "comorag/answer";
    static final int MAX_FINDINGS = 5;

    private final QuestionContext context;
    private final ComoRagOptions options;
    private final TriRetriever retriever;
    private final Embeddings embeddings;
    private final LlmSession llm;
    private final Workspace workspace;
    private final TryAnswer tryAnswer;
    private final float[] questionVector;
    private TryAnswer.Outcome lastFailure;
    /** The cycle under way (0: the first try), for a budget stop's trace. */
    private int current;

    MetacognitiveLoop(
            QuestionContext context,
            ComoRagOptions options,
            TriRetriever retriever,
            Embeddings embeddings,
            ComoRagStore store,
            Function<UUID, String> texts) {
        this.context = context;
        this.options = options;
        this.retriever = retriever;
        this.embeddings = embeddings;
        this.llm = context.llm();
        this.workspace = new Workspace(context.question());
        this.tryAnswer = new TryAnswer(context, options, store, texts);
        this.questionVector = embeddings.query(context.question());
    }

    /** The evidence one probe found, per layer. */
    record Probed(String probe, Map<String, LayerResult> layers) {
        List<Evidence> all() {
            return layers.values().stream().flatMap(r -> r.items().stream()).toList();
        }
    }

    /**
     * Step 0, then the cycles, each started only when its calls fit before the part of the budget kept
     * for the answer. When no try succeeds, the answer is the best-supported tentative one or, failing
     * that, the last resort's over the memory pool and the evidence shown ({@link #unsettled}).
     */
    StrategyResult run() {
        try {
            return loop();
        } catch (BudgetExhaustedException spent) {
            context.trace().record(new StepEvent.BudgetSpent("cycle", current, spent.getMessage()));
            return unsettled(true, "budget", -1, "the budget ran out: " + spent.getMessage());
        }
    }

    private StrategyResult loop() {
        Probed first = retrieve(0, context.question(), questionVector, workspace.seen());
        TryAnswer.Outcome outcome = tryAnswer.attempt(0, List.of(first), "");
        if (outcome.answered()) {
            return finish(outcome.result(false), "answered", 0);
        }
        lastFailure = outcome;
        if (options.maxCycles() == 0) {
            return unsettled(false, "not-settled", 0, "the first try did not settle the question");
        }
        if (options.memory()) {
            update(0, encode(0, List.of(first)));
        } else {
            workspace.see(first.all());
            update(0, List.of());
        }
        int tried = 0;
        for (int cycle = 1; cycle <= options.maxCycles(); cycle++) {
            current = cycle;
            Optional<String> stop = new BudgetGate(context.cancellation(), llm.budget(), context.trace())
                    .stop("cycle", cycle, callsPerCycle(), 0);
            if (stop.isPresent()) {
                return unsettled(true, "budget", tried, stop.get());
            }
            Cycle result = cycle(cycle);
            if (result.stopped()) {
                break;
            }
            tried = cycle;
            if (result.outcome().answered()) {
                return finish(result.outcome().result(false), "answered", cycle);
            }
        }
        return unsettled(false, "not-settled", tried, "no try settled the question in " + tried + " cycles");
    }

    /** What one cycle came to: stopped before its try (no new probe, no new evidence), or its try's outcome. */
    private record Cycle(boolean stopped, TryAnswer.Outcome outcome) {}

    /** Self-Probe → Tri-Retrieve → Mem-Encode → Mem-Fuse → Try-Answer → Mem-Update. */
    private Cycle cycle(int cycle) {
        List<String> probes = options.probing() ? selfProbe(cycle) : List.of(context.question());
        if (probes.isEmpty() && options.noNewProbe().equals(ComoRagOptions.STOP)) {
            context.trace().record(new ComoRagEvent.Stop(cycle, "self-probe found no new probe"));
            return new Cycle(true, null);
        }
        // Algorithm 1 has no stop for want of a probe: the cycle retrieves nothing, fuses the pool and
        // tries again, and the next cycle probes anew (noNewProbe: "continue")
        List<Probed> found = probes.isEmpty() ? List.of() : retrieveAll(cycle, probes);
        if (!probes.isEmpty() && noNewEvidence(found)) {
            context.trace().record(new ComoRagEvent.Stop(cycle, "no layer returned new evidence"));
            return new Cycle(true, null);
        }
        List<MemoryUnit> units = options.memory() && !found.isEmpty() ? encode(cycle, found) : List.of();
        String history = options.memory() ? fuse(cycle) : "";
        TryAnswer.Outcome outcome = tryAnswer.attempt(cycle, found, history, units);
        if (outcome.answered()) {
            return new Cycle(false, outcome);
        }
        lastFailure = outcome;
        if (options.memory()) {
            update(cycle, units);
        } else {
            found.forEach(p -> workspace.see(p.all()));
            update(cycle, List.of());
        }
        probes.forEach(workspace::addProbe);
        return new Cycle(false, outcome);
    }

    /**
     * The paper's per-cycle stop: no layer returned new evidence for any of the cycle's probes. One probe
     * that finds something unseen is enough for the cycle to go on.
     */
    static boolean noNewEvidence(List<Probed> found) {
        return found.stream().allMatch(p -> p.all().isEmpty());
    }

    /**
     * The calls one cycle makes at most: a probe, a fact filter per probe (when the model filters the
     * linked facts), an encode per probe (and layer), a fuse and a try.
     */
    private int callsPerCycle() {
        int layers = (int) ComoRagOptions.LAYERS.stream().filter(options::uses).count();
        int encodes = !options.memory()
                ? 0
                : options.encode().equals(ComoRagOptions.PER_PROBE)
                        ? options.maxProbes()
                        : options.maxProbes() * Math.max(1, layers);
        int filters = options.filtersFactsWithModel() ? options.maxProbes() : 0;
        return (options.probing() ? 1 : 0) + filters + encodes + (options.memory() ? 1 : 0) + 1;
    }

    /**
     * The answer when no try settled the question: by default ({@code afterFailure: signal}) the paper's
     * failure signal, unless the budget stopped the loop; otherwise the best-supported tentative answer of the tries; else,
     * with {@code options.abstain}, an explicit "not settled"; else the last resort's answer over the
     * memory pool's cues (closest to the question first), the tries' tentative answers and the source
     * passages they were shown.
     */
    private StrategyResult unsettled(boolean limited, String outcome, int cycle, String reason) {
        if (!limited && options.afterFailure().equals(ComoRagOptions.SIGNAL)) {
            // the paper: a loop that ends without an answer returns its failure signal
            return finish(
                    new StrategyResult(TryAnswer.NOT_SETTLED, StrategyResult.GENERATED, List.of(), 0.0, null, false),
                    outcome,
                    cycle);
        }
        java.util.Optional<StrategyResult> supported = tryAnswer.supported(limited);
        if (supported.isPresent()) {
            return finish(supported.get(), outcome, cycle);
        }
        if (context.options().abstain()) {
            return finish(tryAnswer.bestSupported(limited), outcome, cycle);
        }
        List<LastResort.Evidence> evidence = new ArrayList<>();
        workspace.mostRelevant(questionVector, 1.0).stream()
                .map(s -> s.item().cue())
                .filter(cue -> !cue.startsWith("(no finding"))
                .forEach(cue -> evidence.add(LastResort.Evidence.note(cue)));
        tryAnswer.tentativeAnswers().forEach(a -> evidence.add(LastResort.Evidence.note("A tentative answer: " + a)));
        for (Evidence shown : tryAnswer.sourcesShown()) {
            evidence.add(new LastResort.Evidence(
                    shown.text(),
                    Citation.of(
                            shown.documentId(),
                            shown.span().start(),
                            shown.span().end(),
                            shown.text())));
        }
        return finish(LastResort.answer(context, reason, evidence, limited), outcome, cycle);
    }

    // ---------------------------------------------------------------- Tri-Retrieve

    private List<Probed> retrieveAll(int cycle, List<String> probes) {
        // Probes of one cycle leave out what an earlier probe of the same cycle found, so that the
        // answerer is not shown the same passage twice.
        Set<String> seen = new LinkedHashSet<>(workspace.seen());
        List<Probed> found = new ArrayList<>();
        for (String probe : probes) {
            float[] vector = probe.equals(context.question()) ? questionVector : embeddings.query(probe);
            Probed p = retrieve(cycle, probe, vector, seen);
            p.all().forEach(e -> seen.add(e.id()));
            found.add(p);
        }
        return found;
    }

    private Probed retrieve(int cycle, String probe, float[] vector, Set<String> seen) {
        Map<String, LayerResult> layers = new LinkedHashMap<>();
        for (String layer : ComoRagOptions.LAYERS) {
            if (!options.uses(layer)) {
                continue;
            }
            LayerResult result = layer.equals(ComoRagOptions.VERIDICAL)
                    ? retriever.veridical(probe, vector, options.tokensFor(layer), seen)
                    : retriever.summaries(layer, vector, options.tokensFor(layer), seen);
            layers.put(layer, result);
            context.trace().record(ComoRagEvent.Retrieve.of(cycle, probe, result));
        }
        return new Probed(probe, layers);
    }

    // ---------------------------------------------------------------- Self-Probe

    private List<String> selfProbe(int cycle) {
        String source;
        PromptMarkup material;
        if (options.memory()) {
            List<MemoryUnit> cues = workspace.cueSource(options.cues());
            source = options.cues().equals(ComoRagOptions.POOL) ? "pool cues" : "cues of the last step";
            material = Prompts.cues(cues);
        } else {
            source = "evidence of the last try";
            material = lastFailure == null ? PromptMarkup.of("(nothing yet)") : lastFailure.evidenceMarkup();
        }
        Map<String, Object> vars = new LinkedHashMap<>();
        vars.put("question", context.question());
        vars.put("previousProbes", Prompts.numbered(workspace.probes()));
        vars.put("material", material);
        vars.put("maxProbes", options.maxProbes());
        Replies.Probes reply;
        try {
            reply = llm.structuredOrText(
                    Role.PLANNER, PROBE, vars, Replies.Probes.class, Replies.Probes::fromPlainText);
        } catch (UnusableReplyException unusable) {
            stepFailed(cycle, "probe", unusable);
            reply = new Replies.Probes(List.of());
        }
        List<String> kept = new ArrayList<>();
        List<ComoRagEvent.DroppedProbe> dropped = new ArrayList<>();
        Set<String> keys = new LinkedHashSet<>();
        for (String probe : reply.list()) {
            String p = probe == null ? "" : probe.strip();
            String reason = p.isEmpty()
                    ? "blank"
                    : !workspace.isNew(p)
                            ? "repeats an earlier probe"
                            : !keys.add(Workspace.key(p))
                                    ? "repeats a probe of this reply"
                                    : kept.size() >= options.maxProbes()
                                            ? "over the limit of " + options.maxProbes() + " probes"
                                            : null;
            if (reason == null) {
                kept.add(p);
            } else {
                dropped.add(new ComoRagEvent.DroppedProbe(p, reason));
            }
        }
        context.trace().record(new ComoRagEvent.Probe(cycle, kept, dropped, source, workspace.probes()));
        return kept;
    }

    // ---------------------------------------------------------------- Mem-Encode

    private record Task(Probed probed, String layer) {}

    private record Encoded(Probed probed, String layer, List<String> findings) {}

    private List<MemoryUnit> encode(int cycle, List<Probed> found) {
        List<Encoded> encoded = options.encode().equals(ComoRagOptions.PER_PROBE)
                ? encodePerProbe(cycle, found)
                : encodePerLayer(cycle, found);
        return remember(cycle, encoded);
    }

    /** One encode call per probe, over all its layers (the {@code per-probe} option). */
    private List<Encoded> encodePerProbe(int cycle, List<Probed> found) {
        List<Encoded> encoded = new ArrayList<>();
        List<Probed> withEvidence =
                found.stream().filter(p -> !p.all().isEmpty()).toList();
        List<Replies.LayeredCue> replies = Parallel.map(
                withEvidence,
                withEvidence.size(),
                p -> usableOr(
                        cycle,
                        () -> llm.structured(
                                Role.RESEARCHER,
                                ENCODE_LAYERS,
                                Map.of(
                                        "question",
                                        context.question(),
                                        "probe",
                                        p.probe(),
                                        "layers",
                                        Prompts.layers(p.layers())),
                                Replies.LayeredCue.class),
                        new Replies.LayeredCue(List.of(), List.of(), List.of())));
        for (int i = 0; i < withEvidence.size(); i++) {
            Probed p = withEvidence.get(i);
            for (LayerResult r : p.layers().values()) {
                if (!r.items().isEmpty()) {
                    encoded.add(new Encoded(p, r.layer(), replies.get(i).of(r.layer())));
                }
            }
        }
        return encoded;
    }

    /** One encode call per probe and layer with evidence, as in the paper. */
    private List<Encoded> encodePerLayer(int cycle, List<Probed> found) {
        List<Encoded> encoded = new ArrayList<>();
        List<Task> tasks = new ArrayList<>();
        found.forEach(p -> p.layers().values().stream()
                .filter(r -> !r.items().isEmpty())
                .forEach(r -> tasks.add(new Task(p, r.layer()))));
        List<Replies.Cue> replies = Parallel.map(
                tasks,
                tasks.size(),
                t -> usableOr(
                        cycle,
                        () -> llm.structuredOrText(
                                Role.RESEARCHER,
                                ENCODE,
                                Map.of(
                                        "question",
                                        context.question(),
                                        "probe",
                                        t.probed().probe(),
                                        "layer",
                                        Prompts.layerName(t.layer()),
                                        "evidence",
                                        Prompts.evidence(
                                                t.probed()
                                                        .layers()
                                                        .get(t.layer())
                                                        .items(),
                                                "P")),
                                Replies.Cue.class,
                                Replies.Cue::fromPlainText),
                        new Replies.Cue(List.of())));
        for (int i = 0; i < tasks.size(); i++) {
            encoded.add(new Encoded(
                    tasks.get(i).probed(), tasks.get(i).layer(), replies.get(i).list()));
        }
        return encoded;
    }

    /** The encoded findings as memory units, each with its cue embedded, traced as {@code memory.encode}. */
    private List<MemoryUnit> remember(int cycle, List<Encoded> encoded) {
        List<String> cues = encoded.stream().map(e -> cue(e.findings())).toList();
        List<float[]> vectors = embeddings.passages(cues);
        List<MemoryUnit> units = new ArrayList<>();
        for (int i = 0; i < encoded.size(); i++) {
            Encoded e = encoded.get(i);
            MemoryUnit unit = new MemoryUnit(
                    workspace.nextUnitId(),
                    cycle,
                    e.probed().probe(),
                    e.layer(),
                    e.probed().layers().get(e.layer()).items(),
                    cues.get(i),
                    vectors.get(i));
            units.add(unit);
            context.trace()
                    .record(ComoRagEvent.MemoryEncode.of(
                            unit, Math.max(0, e.findings().size() - MAX_FINDINGS)));
        }
        return units;
    }

    /** At most five findings, one per line; blank ones dropped. */
    private static String cue(List<String> findings) {
        List<String> kept = findings.stream()
                .filter(f -> f != null && !f.isBlank())
                .map(String::strip)
                .limit(MAX_FINDINGS)
                .toList();
        return kept.isEmpty()
                ? "(no finding: this evidence does not bear on the question)"
                : "- " + String.join("\n- ", kept);
    }

    // ---------------------------------------------------------------- Mem-Fuse

    private String fuse(int cycle) {
        List<Scored<MemoryUnit>> selected = workspace.mostRelevant(questionVector, options.fuseShare());
        if (selected.isEmpty()) {
            return "";
        }
        Replies.Fused reply;
        try {
            reply = llm.structuredOrText(
                    Role.RESEARCHER,
                    FUSE,
                    Map.of(
                            "question",
                            context.question(),
                            "cues",
                            Prompts.cues(selected.stream().map(Scored::item).toList())),
                    Replies.Fused.class,
                    text -> new Replies.Fused(text.strip()));
        } catch (UnusableReplyException unusable) {
            stepFailed(cycle, "fuse", unusable);
            return "";
        }
        String history = reply.history().strip();
        List<ComoRagEvent.Selected> fused = selected.stream()
                .map(s -> new ComoRagEvent.Selected(s.item().id(), ComoRagEvent.round4(s.score())))
                .toList();
        context.trace()
                .record(new ComoRagEvent.MemoryFuse(cycle, workspace.pool().size(), fused, history));
        return history;
    }

    /** A reply with nothing usable ends only its own step: the loop goes on with what the step would have added left empty. */
    private <T> T usableOr(int cycle, java.util.function.Supplier<T> call, T empty) {
        try {
            return call.get();
        } catch (UnusableReplyException unusable) {
            stepFailed(cycle, "encode", unusable);
            return empty;
        }
    }

    private void stepFailed(int cycle, String step, UnusableReplyException unusable) {
        synchronized (context.trace()) {
            context.trace().record(new StepEvent.Failed(step, cycle, unusable.getMessage()));
        }
    }

    // ---------------------------------------------------------------- Mem-Update and the end

    private void update(int cycle, List<MemoryUnit> units) {
        workspace.update(units);
        context.trace()
                .record(new ComoRagEvent.MemoryUpdate(
                        cycle,
                        units.stream().map(MemoryUnit::id).toList(),
                        workspace.pool().size(),
                        workspace.seen().size(),
                        workspace.probes()));
    }

    private StrategyResult finish(StrategyResult result, String outcome, int cycle) {
        context.trace()
                .record(new ComoRagEvent.Answer(
                        outcome,
                        cycle,
                        result.answer(),
                        result.confidence(),
                        result.citations().size(),
                        workspace.pool().size(),
                        workspace.probes()));
        return result;
    }
}
