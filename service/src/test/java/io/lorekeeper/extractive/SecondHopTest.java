package io.lorekeeper.extractive;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.lorekeeper.text.Span;

class SecondHopTest {

    private static final UUID DOC = new UUID(0, 9);

    /** Titled paragraphs as the sentence splitter leaves them: the title line joins the first sentence. */
    private final List<Candidate> candidates = new ArrayList<>();

    private final Map<Candidate, Double> scores = new HashMap<>();

    private Candidate add(String text, int chunk, double score) {
        int offset = candidates.isEmpty() ? 0 : candidates.getLast().span().end() + 1;
        Candidate c = new Candidate(DOC, new Span(offset, offset + text.length()), text, chunk, 0, 1.0);
        candidates.add(c);
        scores.put(c, score);
        return c;
    }

    @Test
    void aBestSentenceWithoutTheAnswerLeadsToTheParagraphTitledByTheNameItMentions() {
        Candidate bridge =
                add("Otto Reinhart\nOtto Reinhart (born 1911) was a chemistry professor at Halden University.", 0, 0.9);
        add("He retired in 1976.", 0, 0.5);
        add("Halden University\nHalden University is a public research university.", 1, 0.4);
        Candidate answer = add("Its main campus is located in Marburg, on the river.", 1, 0.3);
        String question = "Otto Reinhart was a professor at a university that is located in what city?";

        SecondHop.Hop hop = SecondHop.follow(question, AnswerType.of(question), bridge, candidates, scores)
                .orElseThrow();

        assertThat(hop.answer().text()).isEqualTo("Marburg");
        assertThat(hop.evidence()).isEqualTo(answer);
        assertThat(hop.bridge()).isEqualTo(bridge);
    }

    @Test
    void noHopWhenTheBestSentenceAlreadyAnswers() {
        Candidate best = add("Halden University\nHalden University is a public university in Marburg.", 0, 0.9);
        add("Marburg\nMarburg lies in Hesse.", 1, 0.5);

        assertThat(SecondHop.follow("In what city is Halden University?", AnswerType.PLACE, best, candidates, scores))
                .isEmpty();
    }

    @Test
    void aYearTheQuestionAlreadyHoldsIsNoAnswerSoTheBridgeIsFollowed() {
        Candidate best = add(
                "1931 Harvest Honours\nThe 1931 Harvest Honours were appointments by Queen Ilse of Norland.", 0, 0.9);
        add("Queen Ilse of Norland\nIlse (born 1889) was queen of Norland from 1920.", 1, 0.6);
        String question = "In which year was the queen who made the 1931 Harvest Honours born?";

        SecondHop.Hop hop = SecondHop.follow(question, AnswerType.of(question), best, candidates, scores)
                .orElseThrow();

        assertThat(hop.answer().text()).isEqualTo("1889");
    }

    @Test
    void questionsThatAskForANameAreNotFollowed() {
        Candidate best = add("Harbour Lights\nHarbour Lights is a 1952 film directed by Colin Marsh.", 0, 0.9);
        add("Colin Marsh\nColin Marsh (born 1910) was a director.", 1, 0.6);

        assertThat(SecondHop.follow("Who directed Harbour Lights?", AnswerType.PERSON, best, candidates, scores))
                .isEmpty();
    }
}
