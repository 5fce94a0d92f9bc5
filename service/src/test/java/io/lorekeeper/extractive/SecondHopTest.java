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
    void theBestSentenceLeadsToTheParagraphTitledByTheNameItMentions() {
        Candidate bridge =
                add("Otto Reinhart\nOtto Reinhart (born 1911) was a chemistry professor at Halden University.", 0, 0.9);
        add("He retired in 1976.", 0, 0.5);
        Candidate title = add("Halden University\nHalden University is a public research university.", 1, 0.4);
        Candidate answer = add("Its main campus is located in Marburg, on the river.", 1, 0.3);
        add("Marburg\nMarburg lies in Hesse.", 2, 0.35);
        String question = "Otto Reinhart was a professor at a university that is located in what city?";

        List<Candidate> reached = SecondHop.sentences(question, bridge, candidates, scores, 3);

        // best-scored first; the paragraph of the bridge sentence itself and paragraphs no name leads to are not
        // offered
        assertThat(reached).containsExactly(title, answer);
        assertThat(SecondHop.sentences(question, bridge, candidates, scores, 1)).containsExactly(title);
    }

    @Test
    void aNameTheQuestionHoldsLeadsNowhere() {
        Candidate best = add("Harbour Lights\nHarbour Lights is a 1952 film directed by Colin Marsh.", 0, 0.9);
        add("Colin Marsh\nColin Marsh (born 1910) was a director.", 1, 0.6);

        assertThat(SecondHop.sentences("Who was Colin Marsh?", best, candidates, scores, 3))
                .isEmpty();
        assertThat(SecondHop.sentences("Who directed Harbour Lights?", best, candidates, scores, 3))
                .hasSize(1);
    }
}
