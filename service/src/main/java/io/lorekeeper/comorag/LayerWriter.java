package io.lorekeeper.comorag;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.lorekeeper.comorag.ComoRagStore.Summary;
import io.lorekeeper.comorag.ComoRagStore.Unit;
import io.lorekeeper.comorag.ComoRagStore.Vectored;
import io.lorekeeper.document.stage.StageRun;
import io.lorekeeper.llm.LlmSession;
import io.lorekeeper.llm.Role;
import io.lorekeeper.llm.UnusableReplyException;
import io.lorekeeper.memory.Embeddings;
import io.lorekeeper.platform.Failures;
import io.lorekeeper.text.Span;

/**
 * Writes one level of a summary layer: each group of nodes (units at level 1, summaries of the
 * level below higher up) gets one MEMORIZER summary, embedded and stored as soon as it is written.
 * A group is identified by its members; a stored summary of the same members is kept as it is, so
 * a stage that stopped resumes with the groups still missing, and a rebuild after a conversation
 * grew calls the model only for groups that changed. Summaries of groups the plan no longer has are
 * dropped once the level is complete. A group whose reply stays unusable after the gateway's repair
 * is left without its summary and reported as a gap ({@link StageRun#itemFailed}): the level goes
 * on without it (the level above summarises the summaries there are), and the next run of the stage
 * writes it.
 */
final class LayerWriter {

    /** Something summarised: a unit or a summary of the level below, with the units under it. */
    record Node(long id, List<Integer> units, String text, float[] vector) {}

    private final ComoRagStore store;
    private final Embeddings embeddings;
    private final LlmSession llm;
    private final UUID documentId;
    private final String layer;
    private final Map<Integer, Span> unitSpans;
    private final int parallelism;
    private final StageRun run;
    private int done;
    private int total;
    private int calls;

    LayerWriter(
            ComoRagStore store,
            Embeddings embeddings,
            LlmSession llm,
            StageRun run,
            String layer,
            List<Unit> units,
            int parallelism) {
        this.store = store;
        this.embeddings = embeddings;
        this.llm = llm;
        this.run = run;
        this.documentId = run.document().id();
        this.layer = layer;
        this.unitSpans = units.stream().collect(Collectors.toMap(Unit::ordinal, Unit::span));
        this.parallelism = parallelism;
    }

    static List<Node> unitNodes(List<Vectored<Unit>> units, String text) {
        return units.stream()
                .map(u -> new Node(
                        u.item().ordinal(),
                        List.of(u.item().ordinal()),
                        u.item().span().of(text),
                        u.vector()))
                .toList();
    }

    static List<Node> summaryNodes(List<Vectored<Summary>> summaries) {
        return summaries.stream()
                .map(s -> new Node(s.item().id(), s.item().units(), s.item().text(), s.vector()))
                .toList();
    }

    /**
     * The summaries of {@code level}, one per group (indices into {@code nodes}), in group order;
     * {@code variables} renders a group's members for {@code template}.
     */
    List<Vectored<Summary>> write(
            int level,
            List<Node> nodes,
            List<List<Integer>> groups,
            String template,
            Function<List<Node>, Map<String, Object>> variables) {
        List<Planned> plan = plan(level, nodes, groups);
        progress(0, plan.size());
        Set<Long> keep = new HashSet<>();
        List<Planned> missing = new ArrayList<>();
        for (Planned p : plan) {
            Optional<Long> stored = keepStored(level, p);
            stored.ifPresentOrElse(keep::add, () -> missing.add(p));
        }
        List<Summary> written = Parallel.map(missing, parallelism, p -> summarise(level, p, template, variables));
        synchronized (this) {
            calls += missing.size();
        }
        written.stream().filter(java.util.Objects::nonNull).forEach(s -> keep.add(s.id()));
        store.prune(documentId, layer, level, keep);
        return store.summaryVectors(documentId, layer, level);
    }

    /** A group of the level, identified by its members' ids. */
    private record Planned(int ordinal, String key, List<Node> members) {}

    private static List<Planned> plan(int level, List<Node> nodes, List<List<Integer>> groups) {
        List<Planned> plan = new ArrayList<>();
        for (int i = 0; i < groups.size(); i++) {
            List<Node> members = groups.get(i).stream().map(nodes::get).toList();
            String key = (level == 1 ? "u:" : "s:")
                    + members.stream().map(m -> String.valueOf(m.id())).collect(Collectors.joining(","));
            plan.add(new Planned(i, key, members));
        }
        return plan;
    }

    /** The id of the stored summary of the same members, moved to the group's place; empty when there is none. */
    private Optional<Long> keepStored(int level, Planned p) {
        Optional<Summary> stored = store.summary(documentId, layer, level, p.key());
        if (stored.isEmpty()) {
            return Optional.empty();
        }
        if (stored.get().ordinal() != p.ordinal()) {
            store.setOrdinal(stored.get().id(), p.ordinal());
        }
        progress(1, 0);
        return Optional.of(stored.get().id());
    }

    /** One group's summary, written, embedded and stored; null when the reply stayed unusable. */
    private Summary summarise(
            int level, Planned p, String template, Function<List<Node>, Map<String, Object>> variables) {
        SummaryReply reply;
        try {
            reply = llm.structuredOrText(
                    Role.MEMORIZER,
                    template,
                    variables.apply(p.members()),
                    SummaryReply.class,
                    SummaryReply::fromPlainText);
        } catch (UnusableReplyException unusable) {
            // the group stays without its summary (a gap the next run tries again); the level goes on
            run.itemFailed(
                    layer + " level " + level + " group " + p.ordinal() + " (" + p.key() + ")",
                    Failures.describe(unusable));
            return null;
        }
        String text = reply.summary().strip();
        TreeSet<Integer> units = new TreeSet<>();
        p.members().forEach(m -> units.addAll(m.units()));
        Summary summary = store.insertSummary(
                documentId,
                layer,
                level,
                p.ordinal(),
                p.key(),
                List.copyOf(units),
                span(units),
                text,
                embeddings.passages(List.of(text)).getFirst());
        progress(1, 0);
        return summary;
    }

    synchronized int calls() {
        return calls;
    }

    private Span span(TreeSet<Integer> units) {
        return new Span(
                unitSpans.get(units.first()).start(),
                unitSpans.get(units.last()).end());
    }

    private synchronized void progress(int moreDone, int moreTotal) {
        done += moreDone;
        total += moreTotal;
        run.progress(done, total);
    }
}
