package io.lorekeeper.extractive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.lorekeeper.text.Span;

class SpanRankerTest {

    private static final UUID DOC = UUID.fromString("00000000-0000-0000-0000-000000000007");

    private static Candidate sentence(String text) {
        return new Candidate(DOC, new Span(0, text.length()), text, 0, 0, 1.0);
    }

    private static SpanRanker.Piece piece(List<SpanRanker.Piece> pieces, String text) {
        return pieces.stream()
                .filter(p -> p.answer().text().equals(text))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no piece " + text));
    }

    private static List<SpanRanker.Piece> pieces(String question, String... sentences) {
        List<SpanRanker.Offer> offers = new java.util.ArrayList<>();
        for (int i = 0; i < sentences.length; i++) {
            offers.add(new SpanRanker.Offer(sentence(sentences[i]), i, 1.0 - 0.1 * i, null));
        }
        return SpanRanker.pieces(question, AnswerType.of(question), offers, true);
    }

    @Test
    void featuresSayWhereAPieceStandsAgainstTheQuestionsWords() {
        List<SpanRanker.Piece> pieces =
                pieces("Who invited John to the yoga class?", "Rob invited me to a beginner's yoga class.");

        Map<String, Double> rob = piece(pieces, "Rob").features();
        assertThat(rob).containsEntry("kind:names", 1.0).containsEntry("person:names", 1.0);
        assertThat(rob).containsEntry("prose:names", 1.0).containsEntry("opens", 1.0);
        assertThat(rob.get("near")).isCloseTo(Math.exp(-1 / 40.0), within(1e-9)); // one space before "invited"
        assertThat(rob)
                .containsEntry("repeats", 0.0)
                .containsEntry("follows", 0.0)
                .containsEntry("precedes", 1.0);

        Map<String, Double> whole =
                piece(pieces, "Rob invited me to a beginner's yoga class.").features();
        assertThat(whole).containsEntry("kind:sentence", 1.0);
        assertThat(whole.get("repeats")).isCloseTo(3 / 5.0, within(1e-9)); // invited, yoga, class of five content words
        assertThat(whole).containsEntry("near", 0.0); // the question's words inside a piece are not beside it
        assertThat(whole).containsEntry("rank", 1.0).containsEntry("coverage", 0.75); // john is not in it
    }

    @Test
    void aPieceRightAfterTheQuestionsWordsFollowsThem() {
        List<SpanRanker.Piece> pieces = pieces("What did Melanie paint?", "Melanie painted a sunset over the lake.");

        assertThat(piece(pieces, "sunset over the lake").features()).containsEntry("follows", 1.0);
    }

    @Test
    void votesCountTheSentencesOfferingTheSamePiece() {
        List<SpanRanker.Piece> pieces = pieces(
                "Who did Maria meet at the shelter?",
                "Maria met Jean at the shelter.",
                "Then Jean and David cooked.",
                "David left early.");

        assertThat(piece(pieces, "Jean").features().get("votes")).isCloseTo(Math.log(2), within(1e-9));
        assertThat(pieces.stream()
                        .filter(p -> p.answer().text().equals("David"))
                        .map(p -> p.features().get("votes")))
                .containsOnly(Math.log(2));
        assertThat(piece(pieces, "Maria met Jean at the shelter.").features()).containsEntry("votes", 0.0);
        assertThat(piece(pieces, "Then Jean and David cooked.").features())
                .containsEntry("rank", 0.5)
                .containsEntry("relativeScore", 0.9);
    }

    @Test
    void theHighestScoredPieceWinsAndTheFirstOfferedWinsATie() {
        Candidate c = sentence("x");
        ShortAnswer.Answer a = new ShortAnswer.Answer("a", new Span(0, 1), false, ShortAnswer.Kind.PHRASE);
        SpanRanker.Piece first = new SpanRanker.Piece(c, a, "phrase", Map.of(), 1.0);
        SpanRanker.Piece tie = new SpanRanker.Piece(c, a, "names", Map.of(), 1.0);
        SpanRanker.Piece low = new SpanRanker.Piece(c, a, "date", Map.of(), -3.0);

        assertThat(SpanRanker.best(List.of(low, first, tie))).isSameAs(first);
        assertThat(SpanRanker.score(Map.of("no such feature", 5.0))).isZero();
    }

    /** What the shipped model (fitted on the dev sets' folds) does with questions of each kind. */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource(
            delimiter = '|',
            value = {
                "When did the mill burn?|The mill burned on 3 March, 1861, in the night.|3 March 1861",
                "Who told Ada about the lamp?|Then Hector Munro told Ada that the lamp had been left burning.|Hector Munro",
                "How many ships did he count on the last night?|On the last night he counted forty-two ships in the bay.|forty-two ships",
                "How many people did the crew rescue?|In 2022 the crew launched 31 times and rescued 12 people.|12 people",
                "What did Melanie paint recently?|I just finished painting a sunset over the lake!|sunset over the lake"
            })
    void theShippedModelAnswersWithThePieceOfTheKindAsked(String question, String sentence, String answer) {
        Candidate c = sentence(sentence);

        assertThat(SpanRanker.bestIn(question, AnswerType.of(question), c, null, true)
                        .text())
                .isEqualTo(answer);
    }
}
