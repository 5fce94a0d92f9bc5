package io.lorekeeper.extractive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.lorekeeper.extractive.SentenceScorer.Scored;
import io.lorekeeper.text.Span;

class SentenceScorerTest {

    private static final UUID DOC = new UUID(0, 3);
    private static final float[] QUESTION_VECTOR = unit(0);
    private static final double EPS = 1e-6;

    /** A unit vector in the plane at {@code angle} radians from the question vector: its cosine is cos(angle). */
    private static float[] unit(double angle) {
        return new float[] {(float) Math.cos(angle), (float) Math.sin(angle)};
    }

    /** Candidates with their vectors, built up fluently. */
    private static final class Pool {
        final List<Candidate> candidates = new ArrayList<>();
        final List<float[]> vectors = new ArrayList<>();

        Pool add(String text, double angle, double prior) {
            int offset = candidates.isEmpty() ? 0 : candidates.getLast().span().end() + 1;
            candidates.add(
                    new Candidate(DOC, new Span(offset, offset + text.length()), text, candidates.size(), 0, prior));
            vectors.add(unit(angle));
            return this;
        }

        List<Scored> score(String question, AnswerType type) {
            return SentenceScorer.score(question, type, candidates, vectors, QUESTION_VECTOR);
        }
    }

    private static Scored scoredFor(List<Scored> scored, String text) {
        return scored.stream()
                .filter(s -> s.candidate().text().equals(text))
                .findFirst()
                .orElseThrow();
    }

    private static List<String> texts(List<Scored> scored) {
        return scored.stream().map(s -> s.candidate().text()).toList();
    }

    private static final String QUESTION = "Who gave Pip the money for his education?";
    private static final String RESTATEMENT = "Someone gave Pip the money for his education.";
    private static final String ANSWER = "The convict Magwitch had sent it from abroad.";
    private static final String UNRELATED = "The marshes were cold and dark that night.";

    private static Pool whoPool() {
        return new Pool().add(RESTATEMENT, 0.1, 1.0).add(ANSWER, 0.3, 1.0).add(UNRELATED, 1.2, 1.0);
    }

    @Test
    void sentenceOfTheAskedTypeOutranksAMoreSimilarRestatementOfTheQuestion() {
        List<Scored> scored = whoPool().score(QUESTION, AnswerType.PERSON);

        assertThat(texts(scored)).containsExactly(ANSWER, RESTATEMENT, UNRELATED);
        Scored restatement = scoredFor(scored, RESTATEMENT);
        Scored answer = scoredFor(scored, ANSWER);
        assertThat(restatement.lexical()).isGreaterThan(answer.lexical());
        assertThat(restatement.semantic()).isGreaterThan(answer.semantic());
        assertThat(answer.typeMatch()).isTrue();
        assertThat(restatement.typeMatch()).isFalse();
        assertThat(scoredFor(scored, UNRELATED).typeMatch()).isFalse();
    }

    @Test
    void withoutAKnownTypeTheRestatementWins() {
        List<Scored> scored = whoPool().score(QUESTION, AnswerType.OTHER);

        assertThat(texts(scored)).containsExactly(RESTATEMENT, ANSWER, UNRELATED);
    }

    /*
     * The expected scores below are literals worked out by hand from the documented rule, not from the
     * class's constants: score = 0.5 semantic + 0.4 lexical + 0.1 prior; halved when a known answer type
     * is missing from the sentence; times 0.7 for a sentence of fewer than four words.
     */

    @Test
    void scoresCombineTheSignalsWithTheDocumentedWeights() {
        List<Scored> scored = whoPool().score(QUESTION, AnswerType.PERSON);

        // Question terms {who, gave, pip, monei, hi, educ}; the restatement has the last five, each in one of three
        // candidates: idf = ln(1 + 2.5 / 1.5) = ln(8/3); "who" is in no candidate: idf = ln(1 + 3.5 / 0.5) = ln 8.
        // lexical = 5 ln(8/3) / (5 ln(8/3) + ln 8) = 0.702239
        Scored restatement = scoredFor(scored, RESTATEMENT);
        assertThat(restatement.lexical()).isCloseTo(0.702239, within(1e-6));
        assertThat(restatement.semantic()).isEqualTo(1.0);
        assertThat(restatement.prior()).isEqualTo(1.0);
        // no new name: 0.5 * (0.5 * 1 + 0.4 * 0.702239 + 0.1 * 1)
        assertThat(restatement.score()).isCloseTo(0.440448, within(EPS));

        // (cos 0.3 - cos 1.2) / (cos 0.1 - cos 1.2) = 0.937299
        Scored answer = scoredFor(scored, ANSWER);
        assertThat(answer.lexical()).isZero();
        assertThat(answer.semantic()).isCloseTo(0.937299, within(EPS));
        // names Magwitch: 0.5 * 0.937299 + 0.1 * 1
        assertThat(answer.score()).isCloseTo(0.568649, within(EPS));

        Scored unrelated = scoredFor(scored, UNRELATED);
        assertThat(unrelated.semantic()).isEqualTo(0.0);
        // only its prior, halved: 0.5 * 0.1
        assertThat(unrelated.score()).isCloseTo(0.05, within(EPS));
    }

    @Test
    void withoutAKnownTypeNothingIsHalved() {
        List<Scored> scored = whoPool().score(QUESTION, AnswerType.OTHER);

        // the restatement keeps its whole score: 0.5 * 1 + 0.4 * 0.702239 + 0.1 * 1
        assertThat(scoredFor(scored, RESTATEMENT).score()).isCloseTo(0.880896, within(EPS));
        assertThat(scoredFor(scored, ANSWER).score()).isCloseTo(0.568649, within(EPS));
        assertThat(scoredFor(scored, UNRELATED).score()).isCloseTo(0.1, within(EPS));
    }

    @Test
    void priorContributesItsWeight() {
        Pool pool = new Pool()
                .add("The old forge glowed in the dark.", 0.5, 1.0)
                .add("The old forge glowed in the night.", 0.5, 0.25);

        List<Scored> scored = pool.score("What colour was the sky?", AnswerType.OTHER);

        assertThat(scored).extracting(Scored::prior).containsExactly(1.0, 0.25);
        // equal similarity scales to 1 for both: 0.5 + 0.1 * 1 and 0.5 + 0.1 * 0.25
        assertThat(scored.get(0).score()).isCloseTo(0.6, within(EPS));
        assertThat(scored.get(1).score()).isCloseTo(0.525, within(EPS));
    }

    @Test
    void semanticScoresAreMinMaxScaledOverTheCandidates() {
        Pool pool = new Pool()
                .add("Alpha sentence about the forge.", 0.9, 0.5)
                .add("Beta sentence about the marsh.", 0.2, 0.5)
                .add("Gamma sentence about the church.", 0.6, 0.5)
                .add("Delta sentence about the river.", 1.4, 0.5);

        List<Scored> scored = pool.score("Tell me a story?", AnswerType.OTHER);

        assertThat(scoredFor(scored, "Beta sentence about the marsh.").semantic())
                .isEqualTo(1.0);
        assertThat(scoredFor(scored, "Delta sentence about the river.").semantic())
                .isEqualTo(0.0);
        // (cos 0.6 - cos 1.4) / (cos 0.2 - cos 1.4) and (cos 0.9 - cos 1.4) / (cos 0.2 - cos 1.4)
        assertThat(scoredFor(scored, "Gamma sentence about the church.").semantic())
                .isCloseTo(0.808998, within(EPS));
        assertThat(scoredFor(scored, "Alpha sentence about the forge.").semantic())
                .isCloseTo(0.557515, within(EPS));
    }

    @Test
    void scoresAreSortedDescending() {
        Pool pool = new Pool()
                .add("First, far from the question here.", 1.3, 0.1)
                .add("Second, quite close to the question.", 0.2, 0.9)
                .add("Third, in the middle somewhere.", 0.7, 0.4)
                .add("Fourth, the closest of them all.", 0.05, 0.2)
                .add("Fifth, farthest away of the lot.", 1.5, 0.0);

        List<Scored> scored = pool.score("Which sentence is closest?", AnswerType.OTHER);

        // Fourth: 0.5 * 1 + 0.4 * ln 4 / (2 ln 12 + ln 4) + 0.1 * 0.2 ("closest" is the only question term found
        // anywhere)
        // Second: 0.5 * 0.979867 + 0.1 * 0.9; Third: 0.5 * 0.747947 + 0.1 * 0.4; First: 0.5 * 0.212025 + 0.1 * 0.1;
        // Fifth: 0
        assertThat(texts(scored))
                .containsExactly(
                        "Fourth, the closest of them all.",
                        "Second, quite close to the question.",
                        "Third, in the middle somewhere.",
                        "First, far from the question here.",
                        "Fifth, farthest away of the lot.");
        assertThat(scored.get(0).score()).isCloseTo(0.607242, within(EPS));
        assertThat(scored.get(1).score()).isCloseTo(0.579934, within(EPS));
        assertThat(scored.get(2).score()).isCloseTo(0.413974, within(EPS));
        assertThat(scored.get(3).score()).isCloseTo(0.116012, within(EPS));
        assertThat(scored.get(4).score()).isCloseTo(0.0, within(EPS));
    }

    @Test
    void equalSimilaritiesAllScaleToOne() {
        Pool pool = new Pool().add("One sentence about dogs.", 0.4, 0.0).add("Another sentence about cats.", 0.4, 0.0);

        List<Scored> scored = pool.score("Tell me?", AnswerType.OTHER);

        assertThat(scored).extracting(Scored::semantic).containsExactly(1.0, 1.0);
    }

    @Test
    void veryShortSentencesAreDamped() {
        Pool pool = new Pool().add("Yes, it was.", 0.4, 1.0).add("Yes, it was so.", 0.4, 1.0);

        List<Scored> scored = pool.score("Tell me?", AnswerType.OTHER);

        assertThat(texts(scored)).containsExactly("Yes, it was so.", "Yes, it was.");
        // 0.5 * 1 + 0.1 * 1, and for three words 0.7 of that
        assertThat(scored.get(0).score()).isCloseTo(0.6, within(EPS));
        assertThat(scored.get(1).score()).isCloseTo(0.42, within(EPS));
    }

    @Test
    void timeQuestionPrefersTheSentenceWithADate() {
        Pool pool = new Pool()
                .add("Pip left the forge for London, leaving Joe.", 0.1, 1.0)
                .add("It was a cold morning in December.", 0.4, 1.0)
                .add("The marshes were silent.", 1.2, 1.0);

        List<Scored> scored = pool.score("When did Pip leave the forge for London?", AnswerType.TIME);

        assertThat(scored.getFirst().candidate().text()).isEqualTo("It was a cold morning in December.");
        assertThat(scored.getFirst().typeMatch()).isTrue();
    }

    @Test
    void cosineOfVectors() {
        assertThat(SentenceScorer.cosine(new float[] {1, 0}, new float[] {0, 1}))
                .isEqualTo(0.0);
        assertThat(SentenceScorer.cosine(new float[] {1, 2}, new float[] {2, 4}))
                .isCloseTo(1.0, within(1e-12));
        assertThat(SentenceScorer.cosine(new float[] {1, 0}, new float[] {-1, 0}))
                .isEqualTo(-1.0);
        assertThat(SentenceScorer.cosine(new float[] {0, 0}, new float[] {1, 0}))
                .isEqualTo(0.0);
    }

    @Test
    void aQuestionInTheTextHandsMostOfItsScoreToTheReplyThatFollowsIt() {
        // one chunk of a conversation: "Caroline: What got you into running?\nMelanie: I wanted to clear my head. ..."
        String asked = "What got you into running?";
        String reply = "I wanted to clear my head after work.";
        String sameTurn = "It really helps.";
        List<Candidate> candidates = List.of(
                new Candidate(DOC, new Span(10, 10 + asked.length()), asked, 4, 0, 1.0),
                new Candidate(DOC, new Span(46, 46 + reply.length()), reply, 4, 0, 1.0),
                new Candidate(
                        DOC,
                        new Span(47 + reply.length(), 47 + reply.length() + sameTurn.length()),
                        sameTurn,
                        4,
                        0,
                        1.0));
        List<float[]> vectors = List.of(unit(0.05), unit(1.0), unit(1.2));

        List<Scored> scored = SentenceScorer.score(
                "What got Melanie into running?", AnswerType.OTHER, candidates, vectors, QUESTION_VECTOR);

        assertThat(texts(scored).getFirst()).isEqualTo(reply);
        Scored question = scoredFor(scored, asked);
        Scored answer = scoredFor(scored, reply);
        // the reply inherits nearly all of what the question sentence scored on its own; the question keeps a part
        assertThat(answer.score())
                .isCloseTo(question.score() / SentenceScorer.QUESTION_DAMP * SentenceScorer.REPLY_SHARE, within(EPS));
        // the second sentence of the same turn is no reply: a sentence gap, not a new line
        assertThat(scoredFor(scored, sameTurn).score()).isLessThan(question.score());
    }

    @Test
    void aQuestionWhoseReplyWasNotRetrievedOnlyLosesPartOfItsScore() {
        String asked = "What got you into running?";
        List<Candidate> candidates = List.of(
                new Candidate(DOC, new Span(0, asked.length()), asked, 4, 0, 1.0),
                new Candidate(DOC, new Span(100, 120), "Running is so calming", 5, 0, 0.5));

        List<Scored> scored = SentenceScorer.score(
                "What got Melanie into running?",
                AnswerType.OTHER,
                candidates,
                List.of(unit(0.05), unit(0.6)),
                QUESTION_VECTOR);

        Scored question = scoredFor(scored, asked);
        double undamped = SentenceScorer.W_SEMANTIC * question.semantic()
                + SentenceScorer.W_LEXICAL * question.lexical()
                + SentenceScorer.W_PRIOR * question.prior();
        assertThat(question.score()).isCloseTo(undamped * SentenceScorer.QUESTION_DAMP, within(EPS));
        assertThat(SentenceScorer.isQuestion("Really?\u201d")).isTrue();
        assertThat(SentenceScorer.isQuestion("I asked why.")).isFalse();
    }

    @Test
    void aQuestionAboutAPersonIsAnsweredInTheirOwnTurnsNotInTurnsThatAddressThem() {
        // "Melanie: Wow, Caroline, that sounds awesome!" against "Caroline: I went to a counseling workshop on Friday."
        String saidTo = "Wow, Caroline, that sounds awesome!";
        String own = "I went to a counseling workshop on Friday.";
        List<Candidate> candidates = List.of(
                new Candidate(DOC, new Span(0, saidTo.length()), saidTo, 1, 0, 1.0, "Melanie"),
                new Candidate(DOC, new Span(40, 40 + own.length()), own, 2, 0, 1.0, "Caroline"));
        List<float[]> vectors = List.of(unit(0.3), unit(0.3));

        List<Scored> scored = SentenceScorer.score(
                "What workshop did Caroline attend?", AnswerType.OTHER, candidates, vectors, QUESTION_VECTOR);

        assertThat(texts(scored).getFirst()).isEqualTo(own);
        Scored ownScored = scoredFor(scored, own);
        double plain = SentenceScorer.W_SEMANTIC * ownScored.semantic()
                + SentenceScorer.W_LEXICAL * ownScored.lexical()
                + SentenceScorer.W_PRIOR * ownScored.prior();
        assertThat(ownScored.score()).isCloseTo(plain * SentenceScorer.OWN_WORDS, within(EPS));
        assertThat(SentenceScorer.askedSpeakers("What did Mel paint?", candidates))
                .containsExactly("Melanie");
        assertThat(SentenceScorer.askedSpeakers("What did the kids paint?", candidates))
                .isEmpty();
    }

    @Test
    void aSentenceCountingWhatTheQuestionCountsOutranksOneWithAnotherNumber() {
        Pool pool = new Pool()
                .add("The Best of Tamsin is a collection of 25 of the stories of Tamsin Ward.", 0.1, 1.0)
                .add("Her books have sold more than 40 million copies.", 0.3, 1.0)
                .add("The marshes were silent.", 1.2, 1.0);
        String question = "How many copies of Tamsin Ward's stories were sold?";
        List<Scored> unboosted = pool.score(question, AnswerType.OTHER);

        List<Scored> scored = pool.score(question, AnswerType.QUANTITY);

        assertThat(scored.getFirst().candidate().text()).isEqualTo("Her books have sold more than 40 million copies.");
        assertThat(scoredFor(scored, "Her books have sold more than 40 million copies.")
                        .score())
                .isCloseTo(
                        SentenceScorer.COUNTED
                                * scoredFor(unboosted, "Her books have sold more than 40 million copies.")
                                        .score(),
                        within(EPS));
    }

    @Test
    void shortSentencesAreCountedByTheirRunsOfNonSpace() {
        assertThat(SentenceScorer.fewerWordsThan("Good.", 4)).isTrue();
        assertThat(SentenceScorer.fewerWordsThan("Yes,  of\ncourse.", 4)).isTrue();
        assertThat(SentenceScorer.fewerWordsThan("I saw him there.", 4)).isFalse();
        assertThat(SentenceScorer.fewerWordsThan("One two three", 3)).isFalse();
    }
}
