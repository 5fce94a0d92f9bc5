package io.lorekeeper.cosmir;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.lorekeeper.text.TokenCounter;

/**
 * COSMIR's structured memory ⟨Q, F_g, F_i, a⟩: the open questions, the gathered facts (oldest
 * first), the inferred facts (oldest first) and, once the manager has spoken, the answer. Fact ids
 * are never reused, and every fact ever added stays known by id after it is pruned, so that an
 * inferred fact can still be traced to the passages it rests on.
 */
final class Memory {

    private List<String> questions = List.of();
    private final Deque<Fact> gathered = new ArrayDeque<>();
    private final Deque<Fact> inferred = new ArrayDeque<>();
    private final Map<String, Fact> known = new LinkedHashMap<>();
    private int gatheredCount;
    private int inferredCount;
    private String answer = "";

    List<String> questions() {
        return questions;
    }

    void setQuestions(List<String> updated) {
        questions = List.copyOf(updated);
    }

    List<Fact> gathered() {
        return List.copyOf(gathered);
    }

    List<Fact> inferred() {
        return List.copyOf(inferred);
    }

    String answer() {
        return answer;
    }

    void setAnswer(String answer) {
        this.answer = answer;
    }

    /** The fact {@link #gather} would add, measured as it would be, without adding it. */
    Fact gatherable(String text, int chunk, String quote, Fact.Evidence evidence) {
        return Fact.gathered("G" + (gatheredCount + 1), text, chunk, quote, evidence);
    }

    /** The fact {@link #infer} would add, measured as it would be, without adding it. */
    Fact inferable(String text, int chunk, List<String> basis) {
        return Fact.inferred("I" + (inferredCount + 1), text, chunk, basis);
    }

    Fact gather(String text, int chunk, String quote, Fact.Evidence evidence) {
        return remember(gathered, Fact.gathered("G" + ++gatheredCount, text, chunk, quote, evidence));
    }

    Fact infer(String text, int chunk, List<String> basis) {
        return remember(inferred, Fact.inferred("I" + ++inferredCount, text, chunk, basis));
    }

    private Fact remember(Deque<Fact> facts, Fact fact) {
        facts.addLast(fact);
        known.put(fact.id(), fact);
        return fact;
    }

    /** Whether the memory holds this fact now (a pruned fact is known but no longer held). */
    boolean holds(String id) {
        Fact fact = known.get(id);
        return fact != null && (fact.isInferred() ? inferred : gathered).contains(fact);
    }

    /** A fact ever added, pruned or not. */
    Fact known(String id) {
        return known.get(id);
    }

    /** Removes the oldest gathered facts until they take at most {@code capTokens}; returns what was removed. */
    List<Fact> pruneGathered(int capTokens) {
        return prune(gathered, capTokens);
    }

    /** The same for inferred facts, which the paper leaves unbounded; kept within the cap so every call stays bounded. */
    List<Fact> pruneInferred(int capTokens) {
        return prune(inferred, capTokens);
    }

    private static List<Fact> prune(Deque<Fact> facts, int capTokens) {
        List<Fact> removed = new ArrayList<>();
        int total = tokens(facts);
        while (total > capTokens && !facts.isEmpty()) {
            Fact oldest = facts.removeFirst();
            total -= oldest.tokens();
            removed.add(oldest);
        }
        return removed;
    }

    int gatheredTokens() {
        return tokens(gathered);
    }

    int inferredTokens() {
        return tokens(inferred);
    }

    private static int tokens(Deque<Fact> facts) {
        return facts.stream().mapToInt(Fact::tokens).sum();
    }

    /**
     * The gathered facts an answer citing {@code id} rests on: the fact itself when it was gathered,
     * or, for an inferred fact, the gathered facts reached through its basis (pruned ones included).
     */
    List<Fact> groundsOf(String id) {
        Set<Fact> grounds = new LinkedHashSet<>();
        collect(id, grounds, new java.util.HashSet<>());
        return List.copyOf(grounds);
    }

    private void collect(String id, Set<Fact> grounds, Set<String> visited) {
        Fact fact = known.get(id);
        if (fact == null || !visited.add(id)) {
            return;
        }
        if (!fact.isInferred()) {
            grounds.add(fact);
            return;
        }
        fact.basis().forEach(b -> collect(b, grounds, visited));
    }

    /** The memory as the workers and the manager read it. */
    String render() {
        StringBuilder out = new StringBuilder("Open questions:\n");
        if (questions.isEmpty()) {
            out.append("(none)\n");
        }
        questions.forEach(q -> out.append("- ").append(q).append('\n'));
        out.append("\nGathered facts:\n");
        if (gathered.isEmpty()) {
            out.append("(none yet)\n");
        }
        gathered.forEach(f -> out.append(f.line()).append('\n'));
        out.append("\nInferred facts:\n");
        if (inferred.isEmpty()) {
            out.append("(none yet)\n");
        }
        inferred.forEach(f -> out.append(f.line()).append('\n'));
        return out.toString().strip();
    }

    int tokens() {
        return TokenCounter.count(render());
    }

    /** ⟨Q, F_g, F_i, a⟩ for the trace, with counts and token sizes. */
    CosmirEvent.Snapshot snapshot() {
        return new CosmirEvent.Snapshot(
                questions,
                gathered.stream().map(Memory::view).toList(),
                inferred.stream().map(Memory::view).toList(),
                answer,
                new CosmirEvent.Counts(questions.size(), gathered.size(), inferred.size()),
                new CosmirEvent.Tokens(gatheredTokens(), inferredTokens(), tokens()));
    }

    static CosmirEvent.FactView view(Fact fact) {
        if (fact.isInferred()) {
            return new CosmirEvent.FactView(fact.id(), fact.text(), fact.chunk(), fact.basis(), null, null, null, null);
        }
        Fact.Evidence evidence = fact.evidence();
        return new CosmirEvent.FactView(
                fact.id(),
                fact.text(),
                fact.chunk(),
                null,
                fact.quote() == null ? "" : fact.quote(),
                evidence != null,
                evidence == null ? null : evidence.documentId(),
                evidence == null
                        ? null
                        : List.of(evidence.span().start(), evidence.span().end()));
    }
}
