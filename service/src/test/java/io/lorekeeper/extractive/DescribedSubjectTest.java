package io.lorekeeper.extractive;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.lorekeeper.text.Span;

class DescribedSubjectTest {

    private static final UUID DOC = new UUID(0, 11);
    private static final String QUESTION =
            "Which Norlandic stage actor and singer starred in the 1950 film Harbour Lights?";
    private static final String FILM = "Harbour Lights\nHarbour Lights is a 1950 film directed by Colin Marsh.";

    private final List<SentenceScorer.Scored> scored = new ArrayList<>();

    private Candidate add(String text, double score) {
        int offset = scored.isEmpty() ? 0 : scored.getLast().candidate().span().end() + 1;
        Candidate c = new Candidate(DOC, new Span(offset, offset + text.length()), text, scored.size(), 0, 1.0);
        scored.add(new SentenceScorer.Scored(c, score, score, score, 1.0, false));
        return c;
    }

    @Test
    void aDefinitionRepeatingTheQuestionsDescriptionNamesTheAnswer() {
        add(FILM, 0.9);
        Candidate definition = add(
                "Ivo Brandt\nIvo Brandt (born 1901) was a Norlandic stage actor and singer known for comedies.", 0.7);

        DescribedSubject.Found found = DescribedSubject.in(QUESTION, scored).orElseThrow();

        assertThat(found.sentence()).isEqualTo(definition);
        assertThat(found.answer().text()).isEqualTo("Ivo Brandt");
        assertThat(found.answer().span().of(definition.text())).isEqualTo("Ivo Brandt");
    }

    @Test
    void theTitleAnswersForASubjectWrittenOutInFull() {
        add(FILM, 0.9);
        add("Ivo Brandt\nIvo Karl Brandt Jr. (born 1901) was a Norlandic stage actor, singer and painter.", 0.7);

        assertThat(DescribedSubject.in(QUESTION, scored))
                .map(f -> f.answer().text())
                .contains("Ivo Brandt");
    }

    @Test
    void aSubjectUnderAnUnrecognisedTitleLineIsTakenFromItsOwnLine() {
        add(FILM, 0.9);
        add("Brandts\nBrandt, also known as Ivo, was a Norlandic stage actor.", 0.7);

        assertThat(DescribedSubject.in(QUESTION, scored))
                .map(f -> f.answer().text())
                .contains("Brandt");
    }

    @Test
    void oneRepeatedWordIsNotADescription() {
        add(FILM, 0.9);
        add("Ivo Brandt\nIvo Brandt (born 1901) was a Norlandic painter of harbours.", 0.7);

        assertThat(DescribedSubject.in(QUESTION, scored)).isEmpty();
    }

    @Test
    void aSubjectTheQuestionNamesIsNotTheAnswer() {
        add("Colin Marsh\nColin Marsh was a Norlandic stage actor and director.", 0.9);

        assertThat(DescribedSubject.in("Which Norlandic stage actor directed Colin Marsh's first film?", scored))
                .isEmpty();
    }

    @Test
    void definitionsFarBelowTheBestSentenceAreNotConsidered() {
        add(FILM, 0.9);
        add("Ivo Brandt\nIvo Brandt (born 1901) was a Norlandic stage actor and singer.", 0.9 * 0.5);

        assertThat(DescribedSubject.in(QUESTION, scored)).isEmpty();
    }

    @Test
    void aQuestionWithoutWhichOrWhatDescribesNothing() {
        add("Ivo Brandt\nIvo Brandt (born 1901) was a Norlandic stage actor and singer.", 0.9);

        assertThat(DescribedSubject.in("Who starred in Harbour Lights as a Norlandic stage actor?", scored))
                .isEmpty();
    }
}
