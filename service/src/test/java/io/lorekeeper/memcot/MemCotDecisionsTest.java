package io.lorekeeper.memcot;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.lorekeeper.document.search.SearchHit;

/**
 * MemCoT's loop decisions without a model or a database: how the judge's action makes the next
 * queries (what BREAK and DELETE keep, the cap, the queries that failed, the fallback to the root
 * question and the stop when it failed too), what the short-term memory remembers as failed and
 * shows of it, and how a judge's reply is read.
 */
class MemCotDecisionsTest {

    private static final String ROOT = "Where did Caroline go after the support group?";

    private static Judgement judge(Judgement.Action action, List<String> newQueries, List<Integer> resolved) {
        return new Judgement("t", List.of(), false, action, newQueries, resolved);
    }

    private static Unit unit(String id) {
        return new Unit(id, new SearchHit(UUID.randomUUID(), 0, 0, 0, 4, "text", List.of(), List.of(), 1.0), null);
    }

    private static ShortTermMemory failedOn(String... queries) {
        ShortTermMemory memory = new ShortTermMemory();
        memory.fail(new ShortTermMemory.Failure(1, List.of(queries), "BREAK", "nothing"));
        return memory;
    }

    // --- NextQueries

    @Test
    void breakReplacesTheQueueWithTheJudgesSubQueries() {
        NextQueries.Next next = NextQueries.after(
                List.of("a query", "b query"),
                judge(Judgement.Action.BREAK, List.of("sub one", "sub two"), List.of(1)),
                new ShortTermMemory(),
                ROOT,
                5);
        assertThat(next.queries()).containsExactly("sub one", "sub two");
        assertThat(next.settled()).as("BREAK settles nothing").isEmpty();
        assertThat(next.unknownSettled()).isEmpty();
        assertThat(next.fellBack()).isFalse();
    }

    @Test
    void deleteDropsTheSettledQueriesKeepsTheOthersAndAddsTheNarrowedOnes() {
        NextQueries.Next next = NextQueries.after(
                List.of("first", "second", "third"),
                judge(Judgement.Action.DELETE, List.of("narrowed"), List.of(1, 3, 0, 4, -2)),
                new ShortTermMemory(),
                ROOT,
                5);
        assertThat(next.queries()).containsExactly("second", "narrowed");
        assertThat(next.settled()).containsExactly("first", "third");
        assertThat(next.unknownSettled())
                .as("numbers are 1-based: 0, past the last and negative ones name no query")
                .containsExactly(0, 4, -2);
        assertThat(next.repeats()).isEmpty();
    }

    @Test
    void withoutAnActionOnlyTheNewQueriesAreKept() {
        NextQueries.Next next = NextQueries.after(
                List.of("first"), judge(null, List.of("new"), List.of(1)), new ShortTermMemory(), ROOT, 5);
        assertThat(next.queries()).containsExactly("new");
        assertThat(next.settled()).isEmpty();
    }

    @Test
    void theQueueIsCappedAndHoldsEachQueryOnceWhateverItsCaseOrPunctuation() {
        NextQueries.Next next = NextQueries.after(
                List.of(),
                judge(
                        Judgement.Action.BREAK,
                        List.of("Where?", "where", "  WHERE!! ", "when", "why", "who", "?!"),
                        List.of()),
                new ShortTermMemory(),
                ROOT,
                3);
        assertThat(next.queries()).containsExactly("Where?", "when", "why");

        NextQueries.Next exactlyMax = NextQueries.after(
                List.of(), judge(Judgement.Action.BREAK, List.of("a", "b"), List.of()), new ShortTermMemory(), ROOT, 2);
        assertThat(exactlyMax.queries()).containsExactly("a", "b");
    }

    @Test
    void aQueryThatFailedIsNeverSearchedAgainAndIsReportedAsARepeat() {
        ShortTermMemory memory = failedOn("Caroline's trip");
        NextQueries.Next next = NextQueries.after(
                List.of("kept"),
                judge(Judgement.Action.DELETE, List.of("caroline's  TRIP?", "her trip"), List.of()),
                memory,
                ROOT,
                1);
        assertThat(next.queries()).containsExactly("kept");
        assertThat(next.repeats())
                .as("a repeat is reported even when the queue is full")
                .containsExactly("caroline's  TRIP?");
    }

    @Test
    void whenNothingIsLeftTheRootQuestionIsSearchedAgainUnlessItFailedTooThenTheLoopStops() {
        NextQueries.Next fallback = NextQueries.after(
                List.of("only"), judge(Judgement.Action.DELETE, List.of(), List.of(1)), new ShortTermMemory(), ROOT, 3);
        assertThat(fallback.queries()).containsExactly(ROOT);
        assertThat(fallback.fellBack()).isTrue();
        assertThat(fallback.settled()).containsExactly("only");

        NextQueries.Next stop = NextQueries.after(
                List.of("only"),
                judge(Judgement.Action.BREAK, List.of("tried"), List.of()),
                failedOn("tried", ROOT.toUpperCase()),
                ROOT,
                3);
        assertThat(stop.queries()).as("empty: stop").isEmpty();
        assertThat(stop.fellBack()).isFalse();
        assertThat(stop.repeats()).containsExactly("tried");
    }

    // --- ShortTermMemory

    @Test
    void evidenceOnlyGrowsAndAUnitIsAddedOnce() {
        ShortTermMemory memory = new ShortTermMemory();
        assertThat(memory.isEmpty()).isTrue();
        Unit a = unit("D1-C1");
        Unit b = unit("D1-C2");
        assertThat(memory.add(List.of(b, a))).containsExactly(b, a);
        assertThat(memory.isEmpty()).isFalse();
        assertThat(memory.knows(a)).isTrue();
        assertThat(memory.knows(unit("D1-C3"))).isFalse();
        assertThat(memory.add(List.of(unit("D1-C1"), unit("D1-C3"))))
                .extracting(Unit::id)
                .containsExactly("D1-C3");
        assertThat(memory.evidence())
                .as("in the order added; the first copy of a unit stays")
                .extracting(Unit::id)
                .containsExactly("D1-C2", "D1-C1", "D1-C3");
        assertThat(memory.evidence().get(1)).isSameAs(a);
    }

    @Test
    void theJudgeSeesTheLastThreeFailuresAndEveryFailedQueryIsRemembered() {
        ShortTermMemory memory = new ShortTermMemory();
        assertThat(memory.recentFailures()).isEmpty();
        for (int i = 1; i <= 2; i++) {
            memory.fail(new ShortTermMemory.Failure(i, List.of("q" + i), "BREAK", "m"));
        }
        assertThat(memory.recentFailures())
                .extracting(ShortTermMemory.Failure::step)
                .containsExactly(1, 2);
        for (int i = 3; i <= 5; i++) {
            memory.fail(new ShortTermMemory.Failure(i, List.of("q" + i), "DELETE", "m"));
        }
        assertThat(memory.recentFailures())
                .extracting(ShortTermMemory.Failure::step)
                .containsExactly(3, 4, 5);
        assertThat(memory.failed("Q1")).isTrue();
        assertThat(memory.failed("q5?")).isTrue();
        assertThat(memory.failed("q6")).isFalse();
    }

    @Test
    void theTrajectoryKeepsEveryStepInOrder() {
        ShortTermMemory memory = new ShortTermMemory();
        var one = new ShortTermMemory.Step(1, List.of("a"), "BREAK", List.of(), List.of(), "", "", List.of());
        var two = new ShortTermMemory.Step(2, List.of("b"), "DELETE", List.of(), List.of(), "", "", List.of());
        memory.record(one);
        memory.record(two);
        assertThat(memory.trajectory()).containsExactly(one, two);
    }

    @Test
    void queriesAreComparedWithoutCasePunctuationOrRepeatedSpaces() {
        assertThat(ShortTermMemory.normalise("  Where did   she GO?! ")).isEqualTo("where did she go");
        assertThat(ShortTermMemory.normalise("Café, 2023")).isEqualTo("café 2023");
        assertThat(ShortTermMemory.normalise(null)).isEmpty();
        assertThat(ShortTermMemory.normalise("?!")).isEmpty();
    }

    // --- Judgement

    @Test
    void aJudgementDropsBlankIdsAndQueriesAndStripsWhatItKeeps() {
        Judgement judgement = new Judgement(
                "  because  ",
                java.util.Arrays.asList("D1-C2", " ", null),
                true,
                Judgement.Action.DELETE,
                java.util.Arrays.asList("  next query ", "", null),
                java.util.Arrays.asList(2, null));
        assertThat(judgement.thinking()).isEqualTo("because");
        assertThat(judgement.usefulIds()).containsExactly("D1-C2");
        assertThat(judgement.newQueries()).containsExactly("next query");
        assertThat(judgement.resolved()).containsExactly(2);

        Judgement empty = new Judgement(null, null, false, null, null, null);
        assertThat(empty.thinking()).isEmpty();
        assertThat(empty.usefulIds()).isEmpty();
        assertThat(empty.newQueries()).isEmpty();
        assertThat(empty.resolved()).isEmpty();
    }

    @Test
    void aProseJudgementKeepsTheUnitsItNamesAndLeavesTheQuestionOpen() {
        Judgement prose = Judgement.fromProse("D1-C2 and d2 - c7 matter; the answer is not there yet.");
        assertThat(prose.usefulIds()).containsExactly("D1-C2", "d2 - c7");
        assertThat(prose.canAnswer()).isFalse();
        assertThat(prose.action()).isNull();
        assertThat(prose.newQueries()).isEmpty();
    }

    @Test
    void theActionIsReadWithItsSynonymsInAnyCase() {
        for (String s : List.of("BREAK", " decompose ", "Split")) {
            assertThat(Judgement.Action.parse(s)).as(s).isEqualTo(Judgement.Action.BREAK);
        }
        for (String s : List.of("delete", "PRUNE", "remove ")) {
            assertThat(Judgement.Action.parse(s)).as(s).isEqualTo(Judgement.Action.DELETE);
        }
        assertThat(Judgement.Action.parse("continue")).isNull();
        assertThat(Judgement.Action.parse(null)).isNull();
    }
}
