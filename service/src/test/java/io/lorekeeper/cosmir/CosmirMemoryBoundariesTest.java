package io.lorekeeper.cosmir;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.lorekeeper.text.Span;

/**
 * The structured memory's limits and what it holds, without Spring: pruning stops exactly at the
 * cap, inferred facts are pruned like gathered ones, a pruned fact is no longer held, grounds stop
 * at a cycle, and the trace shows each fact's evidence or its basis.
 */
class CosmirMemoryBoundariesTest {

    private static final UUID DOC = UUID.fromString("00000000-0000-0000-0000-0000000000c1");

    private static Fact.Evidence at(int start, String source) {
        return new Fact.Evidence(DOC, new Span(start, start + source.length()), source);
    }

    @Test
    void factsTakingExactlyTheCapAreKeptAndOneTokenLessPrunesTheOldest() {
        Memory memory = new Memory();
        memory.gather("First fact about the forge.", 1, null, null);
        memory.gather("Second fact about the marsh.", 1, null, null);
        int total = memory.gatheredTokens();
        assertThat(total)
                .isEqualTo(memory.gathered().get(0).tokens()
                        + memory.gathered().get(1).tokens())
                .isPositive();
        assertThat(memory.pruneGathered(total)).isEmpty();
        assertThat(memory.pruneGathered(total - 1)).extracting(Fact::id).containsExactly("G1");
        assertThat(memory.gatheredTokens())
                .isEqualTo(memory.gathered().getFirst().tokens());
    }

    @Test
    void inferredFactsArePrunedOldestFirstAndAPrunedFactIsKnownButNotHeld() {
        Memory memory = new Memory();
        memory.gather("Pip fed a convict.", 1, "fed", at(0, "fed"));
        memory.infer("Pip is kind.", 1, List.of("G1"));
        memory.infer("Pip is brave.", 2, List.of("G1"));
        assertThat(memory.inferredTokens())
                .isEqualTo(memory.inferred().get(0).tokens()
                        + memory.inferred().get(1).tokens());
        assertThat(memory.holds("I1")).isTrue();
        assertThat(memory.holds("G1")).isTrue();
        assertThat(memory.holds("I9")).as("never added").isFalse();

        List<Fact> pruned = memory.pruneInferred(memory.inferred().getLast().tokens());
        assertThat(pruned).extracting(Fact::id).containsExactly("I1");
        assertThat(memory.inferred()).extracting(Fact::id).containsExactly("I2");
        assertThat(memory.holds("I1")).isFalse();
        assertThat(memory.holds("I2")).isTrue();
        assertThat(memory.holds("G1")).as("gathered facts are not touched").isTrue();
        assertThat(memory.known("I1").text()).isEqualTo("Pip is kind.");
        assertThat(memory.tokens()).isPositive();
    }

    @Test
    void aGatheredFactIsHeldOnlyInTheGatheredFactsAndAnInferredOneOnlyInTheInferred() {
        Memory memory = new Memory();
        memory.gather("Pip fed a convict.", 1, "fed", at(0, "fed"));
        memory.infer("Pip is kind.", 1, List.of("G1"));
        memory.pruneGathered(0);
        assertThat(memory.holds("G1")).isFalse();
        assertThat(memory.holds("I1")).isTrue();
    }

    @Test
    void groundsStopAtACycleOfInferences() {
        Memory memory = new Memory();
        memory.gather("Pip fed a convict.", 1, "fed", at(0, "fed"));
        // I1 rests on I2, which does not exist yet, and on G1; I2 rests on I1.
        memory.infer("A.", 1, List.of("I2", "G1"));
        memory.infer("B.", 1, List.of("I1"));
        assertThat(memory.groundsOf("I2")).extracting(Fact::id).containsExactly("G1");
    }

    @Test
    void theTraceShowsAGatheredFactsEvidenceOrItsAbsenceAndAnInferredFactsBasis() {
        Memory memory = new Memory();
        memory.setQuestions(List.of("Who?"));
        memory.setAnswer("Magwitch");
        Fact located = memory.gather("Pip fed a convict.", 1, "fed a convict", at(5, "fed a convict"));
        Fact unlocated = memory.gather("Pip had doubts.", 2, null, null);
        Fact inferred = memory.infer("Pip is kind.", 2, List.of("G1"));

        CosmirEvent.FactView view = Memory.view(located);
        assertThat(view.quote()).isEqualTo("fed a convict");
        assertThat(view.located()).isTrue();
        assertThat(view.documentId()).isEqualTo(DOC);
        assertThat(view.span()).containsExactly(5, 18);
        assertThat(view.basis()).isNull();

        CosmirEvent.FactView none = Memory.view(unlocated);
        assertThat(none.quote()).isEmpty();
        assertThat(none.located()).isFalse();
        assertThat(none.documentId()).isNull();
        assertThat(none.span()).isNull();

        CosmirEvent.FactView basis = Memory.view(inferred);
        assertThat(basis.basis()).containsExactly("G1");
        assertThat(basis.quote()).isNull();
        assertThat(basis.located()).isNull();

        CosmirEvent.Snapshot snapshot = memory.snapshot();
        assertThat(snapshot.answer()).isEqualTo("Magwitch");
        assertThat(memory.answer()).isEqualTo("Magwitch");
        assertThat(snapshot.inferred()).extracting(CosmirEvent.FactView::id).containsExactly("I1");
        assertThat(snapshot.tokens().gathered())
                .isEqualTo(memory.gatheredTokens())
                .isPositive();
        assertThat(snapshot.tokens().inferred())
                .isEqualTo(memory.inferredTokens())
                .isPositive();
        assertThat(memory.render())
                .contains("Inferred facts:\n[I1] Pip is kind. (from G1)")
                .doesNotContain("(none");
        Memory gatheredOnly = new Memory();
        gatheredOnly.gather("Pip fed a convict.", 1, null, null);
        assertThat(gatheredOnly.render()).endsWith("Inferred facts:\n(none yet)");
    }
}
