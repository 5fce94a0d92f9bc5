package io.lorekeeper.extractive;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import io.lorekeeper.text.Span;

/**
 * A question that asks for several things ("What martial arts has John done?") is answered from
 * several sentences: the short answer of each sentence that scores close to the best one, in score
 * order, joined by commas, each sentence cited. One sentence rarely holds every item of such a list.
 */
final class ListAnswer {

    /** A sentence joins the list when it scores at least this share of the best sentence's score. */
    static final double RATIO = 0.8;

    static final int MAX_ITEMS = 4;

    private final ShortAnswer.Answer answer;
    private final List<Candidate> sentences;

    private ListAnswer(ShortAnswer.Answer answer, List<Candidate> sentences) {
        this.answer = answer;
        this.sentences = sentences;
    }

    ShortAnswer.Answer answer() {
        return answer;
    }

    /** The sentences the items come from, the best first. */
    List<Candidate> sentences() {
        return sentences;
    }

    /**
     * @param first the short answer already taken from the best sentence
     */
    static ListAnswer of(
            String question,
            AnswerType type,
            List<SentenceScorer.Scored> scored,
            ShortAnswer.Answer first,
            boolean prose) {
        List<String> items = new ArrayList<>();
        List<Candidate> sentences = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        items.add(first.text());
        seen.add(first.text().toLowerCase(Locale.ROOT));
        sentences.add(scored.getFirst().candidate());
        double best = scored.getFirst().score();
        for (SentenceScorer.Scored s : scored.subList(1, scored.size())) {
            if (items.size() >= MAX_ITEMS || s.score() < RATIO * best) {
                break;
            }
            if (SentenceScorer.isQuestion(s.candidate().text())) {
                continue; // a question asked back holds no item
            }
            ShortAnswer.Answer item = SpanRanker.bestIn(question, type, s.candidate(), null, prose);
            if (item.kind() == ShortAnswer.Kind.SENTENCE
                    || !seen.add(item.text().toLowerCase(Locale.ROOT))) {
                continue;
            }
            items.add(item.text());
            sentences.add(s.candidate());
        }
        String text = String.join(", ", items);
        ShortAnswer.Answer joined = new ShortAnswer.Answer(
                text,
                new Span(0, scored.getFirst().candidate().text().length()),
                items.size() > 1 || first.derived(),
                items.size() > 1 ? ShortAnswer.Kind.LIST : first.kind());
        return new ListAnswer(joined, sentences);
    }
}
