package io.lorekeeper.extractive;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.lorekeeper.extractive.SentenceScorer.Scored;
import io.lorekeeper.text.Span;

class ListAnswerTest {

    private static final UUID DOC = new UUID(0, 7);

    private static List<Scored> scored(Object... textAndScore) {
        List<Scored> out = new ArrayList<>();
        int offset = 0;
        for (int i = 0; i < textAndScore.length; i += 2) {
            String text = (String) textAndScore[i];
            out.add(new Scored(
                    new Candidate(DOC, new Span(offset, offset + text.length()), text, i, 0, 1.0),
                    (double) textAndScore[i + 1],
                    0.5,
                    0.5,
                    1.0,
                    false));
            offset += text.length() + 1;
        }
        return out;
    }

    @Test
    void severalThingsAskedForAreTakenFromEachCloseSentenceAndCited() {
        String question = "What martial arts has John done?";
        List<Scored> scored = scored(
                "I started kickboxing at the gym.", 0.80,
                "Taekwondo was my first love as a kid.", 0.72,
                "What do you do to stay fit?", 0.70,
                "The weather was lovely on Sunday.", 0.30);
        ShortAnswer.Answer first =
                new ShortAnswer.Answer("kickboxing", new Span(10, 20), false, ShortAnswer.Kind.PHRASE);

        ListAnswer list = ListAnswer.of(question, AnswerType.OTHER, scored, first, false);

        // the second item is the piece the ranker picks in the second sentence, unless that is the whole sentence
        ShortAnswer.Answer second =
                SpanRanker.bestIn(question, AnswerType.OTHER, scored.get(1).candidate(), null, false);
        if (second.isWholeSentence()) {
            assertThat(list.sentences()).hasSize(1);
            assertThat(list.answer().text()).isEqualTo("kickboxing");
        } else {
            assertThat(list.answer().text()).isEqualTo("kickboxing, " + second.text());
            assertThat(list.answer().kind()).isEqualTo(ShortAnswer.Kind.LIST);
            assertThat(list.sentences())
                    .extracting(Candidate::text)
                    .containsExactly("I started kickboxing at the gym.", "Taekwondo was my first love as a kid.");
        }
        // the question asked back and the far weaker sentence add nothing
        assertThat(list.sentences())
                .extracting(Candidate::text)
                .doesNotContain("What do you do to stay fit?", "The weather was lovely on Sunday.");
    }

    @Test
    void oneCloseSentenceIsNoList() {
        String question = "What books has Melanie read?";
        List<Scored> scored =
                scored("I loved reading Charlotte's Web to the kids.", 0.9, "The kids loved the zoo.", 0.4);
        ShortAnswer.Answer first =
                SpanRanker.bestIn(question, AnswerType.OTHER, scored.getFirst().candidate(), null, false);

        ListAnswer list = ListAnswer.of(question, AnswerType.OTHER, scored, first, false);

        assertThat(list.sentences()).hasSize(1);
        assertThat(list.answer().text()).isEqualTo(first.text());
    }
}
