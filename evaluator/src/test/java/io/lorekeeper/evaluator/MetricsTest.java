package io.lorekeeper.evaluator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.lorekeeper.evaluator.Metrics.DocSpan;

/** Every expected value below was computed by hand from the metric's definition. */
class MetricsTest {

    private static final double EPS = 1e-4;

    @Test
    void locomoNormalisationDropsCommasPunctuationArticlesAndStems() {
        assertThat(Metrics.normalizeLocomo("The cats, and dogs!")).isEqualTo("cats dogs");
        assertThat(Metrics.locomoTokens("The cats, and dogs!")).containsExactly("cat", "dog");
        // identical after normalisation and stemming
        assertThat(Metrics.locomoTokenF1("The cats, and dogs!", "cat dog")).isCloseTo(1.0, within(EPS));
        assertThat(Metrics.locomoExactMatch("The Dogs", "dog", 4)).isEqualTo(1.0);
        assertThat(Metrics.locomoExactMatch("two dogs", "dog", 4)).isEqualTo(0.0);
    }

    @Test
    void locomoTokenF1() {
        // [pari, in, franc] vs [pari]: P 1/3, R 1, F1 = 2*(1/3)/(4/3) = 0.5
        assertThat(Metrics.locomoF1("Paris in France", "Paris", 4)).isCloseTo(0.5, within(EPS));
        // integer gold answer: [in, 2022] vs [2022]: P 1/2, R 1, F1 2/3
        assertThat(Metrics.locomoF1("In 2022.", "2022", 2)).isCloseTo(2.0 / 3, within(EPS));
        assertThat(Metrics.locomoF1("Berlin", "Paris", 4)).isEqualTo(0.0);
        assertThat(Metrics.locomoF1("", "Paris", 4)).isEqualTo(0.0);
    }

    @Test
    void locomoMultiHopAveragesTheBestMatchPerGoldPart() {
        // gold parts: painting -> 1 (pred part "painting"), swimming -> 0, running -> 1; mean 2/3
        assertThat(Metrics.locomoF1("running, painting", "painting, swimming, running", 1))
                .isCloseTo(2.0 / 3, within(EPS));
        // the whole prediction is one part: "running painting" vs "running" -> P 1/2, R 1 -> 2/3; vs "painting" the
        // same
        assertThat(Metrics.locomoF1("running painting", "running, painting", 1)).isCloseTo(2.0 / 3, within(EPS));
    }

    @Test
    void locomoCategoryThreeCutsTheGoldAtTheSemicolon() {
        // gold "Likely yes" -> [like, ye]; pred [ye]: P 1, R 1/2, F1 2/3 (the part after ";" is ignored)
        assertThat(Metrics.locomoF1("yes", "Likely yes; because she likes it", 3))
                .isCloseTo(2.0 / 3, within(EPS));
        // as category 4 the whole gold counts: [like, ye, becaus, she, like, it] -> P 1, R 1/6, F1 = 2/7
        assertThat(Metrics.locomoF1("yes", "Likely yes; because she likes it", 4))
                .isCloseTo(2.0 / 7, within(EPS));
    }

    @Test
    void locomoCategoryFiveAcceptsOnlyTheBenchmarksOwnPhrases() {
        assertThat(Metrics.locomoF1("That is not mentioned in the conversation", "", 5))
                .isEqualTo(1.0);
        assertThat(Metrics.locomoF1("Sorry, NO INFORMATION AVAILABLE about that.", "", 5))
                .isEqualTo(1.0);
        assertThat(Metrics.locomoExactMatch("No information available", "", 5)).isEqualTo(1.0);
        assertThat(Metrics.locomoF1("She went to Paris", "", 5)).isEqualTo(0.0);
        // this service's own way of declining is not what LoCoMo's scoring looks for
        assertThat(Metrics.locomoF1("The information is not available in the documents.", "", 5))
                .isEqualTo(0.0);
        assertThat(Metrics.locomoExactMatch("The information is not available in the documents.", "", 5))
                .isEqualTo(0.0);
        assertThat(Metrics.locomoF1("There is no information about her trip.", "", 5))
                .isEqualTo(0.0);
    }

    @Test
    void theOwnWordingVariantAlsoAcceptsThisServicesWayOfDeclining() {
        assertThat(Metrics.declinesInOwnWording("The information is not available in the documents."))
                .isTrue();
        assertThat(Metrics.declinesInOwnWording("There is no information about her trip."))
                .isTrue();
        assertThat(Metrics.declinesInOwnWording("That is not mentioned in the conversation"))
                .isTrue();
        assertThat(Metrics.declinesInOwnWording("She went to Paris")).isFalse();
        assertThat(Metrics.declinesInOwnWording(null)).isFalse();
    }

    @Test
    void squadF1AndExactMatch() {
        assertThat(Metrics.squadF1("the Chief of Protocol", List.of("Chief of Protocol")))
                .isCloseTo(1.0, within(EPS));
        assertThat(Metrics.squadExactMatch("the Chief of Protocol.", List.of("Chief of Protocol")))
                .isEqualTo(1.0);
        // [chief, of, state] vs [chief, of, protocol]: 2 shared, P = R = 2/3
        assertThat(Metrics.squadF1("Chief of State", List.of("Chief of Protocol")))
                .isCloseTo(2.0 / 3, within(EPS));
        // best over the gold answers
        // [chief, of, state] vs "Protocol": 0; vs "state": P 1/3, R 1, F1 0.5; the best is 0.5
        assertThat(Metrics.squadF1("Chief of State", List.of("Protocol", "state")))
                .isCloseTo(0.5, within(EPS));
        // SQuAD keeps "and" and does not stem
        assertThat(Metrics.squadExactMatch("salt and pepper", List.of("salt pepper")))
                .isEqualTo(0.0);
        assertThat(Metrics.squadF1("dogs", List.of("dog"))).isEqualTo(0.0);
    }

    @Test
    void rougeL() {
        // LCS "the cat on the mat" = 5 of 6 tokens each side: P = R = 5/6
        assertThat(Metrics.rougeL("the cat sat on the mat", "the cat is on the mat"))
                .isCloseTo(5.0 / 6, within(EPS));
        // LCS 2: P 2/4, R 1, F = 2/3
        assertThat(Metrics.rougeL("a b c d", "a c")).isCloseTo(2.0 / 3, within(EPS));
        assertThat(Metrics.rougeL("x", "y")).isEqualTo(0.0);
        assertThat(Metrics.lcs(List.of("a", "b", "c", "b", "d", "a", "b"), List.of("b", "d", "c", "a", "b", "a")))
                .isEqualTo(4);
    }

    @Test
    void choiceAccuracyAndRulerStringMatch() {
        assertThat(Metrics.choiceAccuracy(2, 2)).isEqualTo(1.0);
        assertThat(Metrics.choiceAccuracy(null, 2)).isEqualTo(0.0);
        assertThat(Metrics.rulerStringMatchAll("The keys are 123 and 456", List.of("123", "456", "789")))
                .isCloseTo(2.0 / 3, within(EPS));
        assertThat(Metrics.rulerStringMatchPart("The keys are 123 and 456", List.of("123", "456", "789")))
                .isEqualTo(1.0);
        assertThat(Metrics.rulerStringMatchPart("nothing", List.of("ABC"))).isEqualTo(0.0);
        assertThat(Metrics.rulerStringMatchAll("the value is abc", List.of("ABC")))
                .isEqualTo(1.0);
    }

    @Test
    void evidenceRecallCountsGoldSpansAtLeastHalfInsideTheContext() {
        List<DocSpan> gold = List.of(new DocSpan("d", 0, 10), new DocSpan("d", 20, 30), new DocSpan("d", 50, 60));
        // [0,10): 5..10 covered (5 of 10) -> in; [20,30): 20..24 (4 of 10) -> out; [50,60): nothing -> out
        List<DocSpan> context = List.of(new DocSpan("d", 5, 12), new DocSpan("d", 18, 24));
        assertThat(Metrics.evidenceRecall(gold, context)).isCloseTo(1.0 / 3, within(EPS));
        // overlapping context spans are not double counted: [20,26) and [22,24) cover 6 of 10 -> in
        assertThat(Metrics.evidenceRecall(
                        List.of(new DocSpan("d", 20, 30)), List.of(new DocSpan("d", 22, 24), new DocSpan("d", 20, 26))))
                .isEqualTo(1.0);
        // another document's spans do not count
        assertThat(Metrics.evidenceRecall(List.of(new DocSpan("d", 0, 10)), List.of(new DocSpan("e", 0, 10))))
                .isEqualTo(0.0);
        assertThat(Metrics.evidenceRecall(List.of(), context)).isNull();
    }

    @Test
    void answerInContextLooksForAGoldAnswerAsWholeWords() {
        List<String> context = List.of("It was the Rachel, searching\nfor her missing children.", "Call me Ishmael.");

        assertThat(Metrics.answerInContext(List.of("rachel"), context)).isEqualTo(1.0);
        assertThat(Metrics.answerInContext(List.of("searching for"), context)).isEqualTo(1.0);
        assertThat(Metrics.answerInContext(List.of("Rach"), context)).isEqualTo(0.0);
        assertThat(Metrics.answerInContext(List.of("Pequod", "ishmael"), context))
                .isEqualTo(1.0);
        assertThat(Metrics.answerInContext(List.of("the Captain\u2019s"), List.of("the captain's log")))
                .isEqualTo(1.0);
        assertThat(Metrics.answerInContext(List.of("Pequod"), List.of())).isEqualTo(0.0);
        assertThat(Metrics.answerInContext(List.of(), context)).isNull();
    }
}
