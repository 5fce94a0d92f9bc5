package io.lorekeeper.reasoning.extractive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.lorekeeper.reasoning.extractive.SentenceScorer.Scored;
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
            candidates.add(new Candidate(DOC, new Span(offset, offset + text.length()), text, candidates.size(), 0, prior));
            vectors.add(unit(angle));
            return this;
        }

        List<Scored> score(String question, AnswerType type) {
            return SentenceScorer.score(question, type, candidates, vectors, QUESTION_VECTOR);
        }
    }

    private static Scored scoredFor(List<Scored> scored, String text) {
        return scored.stream().filter(s -> s.candidate().text().equals(text)).findFirst().orElseThrow();
    }

    private static List<String> texts(List<Scored> scored) {
        return scored.stream().map(s -> s.candidate().text()).toList();
    }

    private static final String QUESTION = "Who gave Pip the money for his education?";
    private static final String RESTATEMENT = "Someone gave Pip the money for his education.";
    private static final String ANSWER = "The convict Magwitch had sent it from abroad.";
    private static final String UNRELATED = "The marshes were cold and dark that night.";

    private static Pool whoPool() {
        return new Pool()
                .add(RESTATEMENT, 0.1, 1.0)
                .add(ANSWER, 0.3, 1.0)
                .add(UNRELATED, 1.2, 1.0);
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

    @Test
    void scoresCombineTheSignalsWithTheDocumentedWeights() {
        List<Scored> scored = whoPool().score(QUESTION, AnswerType.PERSON);

        // Question terms {who, gave, pip, monei, hi, educ}; the restatement has the last five, each in one of three
        // candidates: idf = ln(1 + 2.5 / 1.5) = ln(8/3); "who" is in no candidate: idf = ln(1 + 3.5 / 0.5) = ln 8.
        double idf = Math.log(8.0 / 3.0);
        double lexical = 5 * idf / (5 * idf + Math.log(8));
        Scored restatement = scoredFor(scored, RESTATEMENT);
        assertThat(restatement.lexical()).isCloseTo(lexical, within(EPS));
        assertThat(restatement.lexical()).isCloseTo(0.70224, within(1e-5));
        assertThat(restatement.semantic()).isEqualTo(1.0);
        assertThat(restatement.prior()).isEqualTo(1.0);
        assertThat(restatement.score()).isCloseTo(SentenceScorer.TYPE_MISMATCH * (SentenceScorer.W_SEMANTIC * 1.0 + SentenceScorer.W_LEXICAL * lexical + SentenceScorer.W_PRIOR * 1.0), within(EPS));

        double semantic = (Math.cos(0.3) - Math.cos(1.2)) / (Math.cos(0.1) - Math.cos(1.2));
        Scored answer = scoredFor(scored, ANSWER);
        assertThat(answer.lexical()).isZero();
        assertThat(answer.semantic()).isCloseTo(semantic, within(EPS));
        assertThat(answer.score()).isCloseTo(SentenceScorer.W_SEMANTIC * semantic + SentenceScorer.W_PRIOR * 1.0, within(EPS));

        Scored unrelated = scoredFor(scored, UNRELATED);
        assertThat(unrelated.semantic()).isEqualTo(0.0);
        assertThat(unrelated.score()).isCloseTo(SentenceScorer.TYPE_MISMATCH * SentenceScorer.W_PRIOR, within(EPS));
    }

    @Test
    void priorContributesItsWeight() {
        Pool pool = new Pool()
                .add("The old forge glowed in the dark.", 0.5, 1.0)
                .add("The old forge glowed in the night.", 0.5, 0.25);

        List<Scored> scored = pool.score("What colour was the sky?", AnswerType.OTHER);

        assertThat(scored).extracting(Scored::prior).containsExactly(1.0, 0.25);
        assertThat(scored.get(0).score() - scored.get(1).score()).isCloseTo(SentenceScorer.W_PRIOR * 0.75, within(EPS));
    }

    @Test
    void semanticScoresAreMinMaxScaledOverTheCandidates() {
        Pool pool = new Pool()
                .add("Alpha sentence about the forge.", 0.9, 0.5)
                .add("Beta sentence about the marsh.", 0.2, 0.5)
                .add("Gamma sentence about the church.", 0.6, 0.5)
                .add("Delta sentence about the river.", 1.4, 0.5);

        List<Scored> scored = pool.score("Tell me a story?", AnswerType.OTHER);

        assertThat(scoredFor(scored, "Beta sentence about the marsh.").semantic()).isEqualTo(1.0);
        assertThat(scoredFor(scored, "Delta sentence about the river.").semantic()).isEqualTo(0.0);
        double range = Math.cos(0.2) - Math.cos(1.4);
        assertThat(scoredFor(scored, "Gamma sentence about the church.").semantic())
                .isCloseTo((Math.cos(0.6) - Math.cos(1.4)) / range, within(EPS));
        assertThat(scoredFor(scored, "Alpha sentence about the forge.").semantic())
                .isCloseTo((Math.cos(0.9) - Math.cos(1.4)) / range, within(EPS));
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

        assertThat(scored).hasSize(5).extracting(Scored::score).isSortedAccordingTo((a, b) -> Double.compare(b, a));
        assertThat(texts(scored)).last().isEqualTo("Fifth, farthest away of the lot.");
        assertThat(texts(scored).subList(0, 2)).containsExactlyInAnyOrder("Second, quite close to the question.",
                "Fourth, the closest of them all.");
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
        assertThat(scored.get(0).score()).isCloseTo(SentenceScorer.W_SEMANTIC + SentenceScorer.W_PRIOR, within(EPS));
        assertThat(scored.get(1).score()).isCloseTo(0.7 * (SentenceScorer.W_SEMANTIC + SentenceScorer.W_PRIOR), within(EPS));
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
        assertThat(SentenceScorer.cosine(new float[] {1, 0}, new float[] {0, 1})).isEqualTo(0.0);
        assertThat(SentenceScorer.cosine(new float[] {1, 2}, new float[] {2, 4})).isCloseTo(1.0, within(1e-12));
        assertThat(SentenceScorer.cosine(new float[] {1, 0}, new float[] {-1, 0})).isEqualTo(-1.0);
        assertThat(SentenceScorer.cosine(new float[] {0, 0}, new float[] {1, 0})).isEqualTo(0.0);
    }
}
