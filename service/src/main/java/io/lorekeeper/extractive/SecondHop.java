package io.lorekeeper.extractive;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Two-hop questions over titled paragraphs: "In what city is the university where Ralph Hefferline
 * taught?" is best matched by the sentence about Hefferline, which names the bridge ("a professor
 * at Columbia University") but not the answer; the answer is in the paragraph titled with the
 * bridge's name. When the best sentence holds no answer of the kind asked for (a date, a place, a
 * number the question does not already contain), the names it mentions are followed to the
 * retrieved paragraphs they title, and the best-scored sentence there that holds such an answer
 * answers. Both sentences are cited: the bridge and the answer.
 */
final class SecondHop {

    private static final Pattern NAME =
            Pattern.compile("\\b\\p{Lu}[\\p{L}'’.-]*(?:\\s+(?:(?:of|the|de|von|van)\\s+)*\\p{Lu}[\\p{L}'’.-]*)*");

    private static final Pattern RELATIVE_CLAUSE = Pattern.compile(
            "\\b(?:a|an|the|this)\\s+(?:[\\p{L}-]+\\s+){0,3}(?:that|which|who|whose|where)\\b",
            Pattern.CASE_INSENSITIVE);

    record Hop(Candidate bridge, Candidate evidence, ShortAnswer.Answer answer) {}

    private SecondHop() {}

    /** Whether the short answer is of the kind the question asks for and new to the question. */
    static boolean answers(String question, AnswerType type, ShortAnswer.Answer answer) {
        boolean kind = switch (type) {
            case TIME -> answer.kind() == ShortAnswer.Kind.DATE;
            case PLACE -> answer.kind() == ShortAnswer.Kind.PLACE;
            case QUANTITY -> answer.kind() == ShortAnswer.Kind.NUMBER;
            default -> false;
        };
        return kind && !question.toLowerCase(Locale.ROOT).contains(answer.text().toLowerCase(Locale.ROOT));
    }

    /**
     * @param candidates every candidate sentence in text order within its chunk
     * @param scores     each candidate's score
     */
    static Optional<Hop> follow(
            String question,
            AnswerType type,
            Candidate best,
            List<Candidate> candidates,
            Map<Candidate, Double> scores) {
        if (type != AnswerType.TIME && type != AnswerType.PLACE && type != AnswerType.QUANTITY) {
            return Optional.empty();
        }
        if (answers(question, type, ShortAnswer.of(question, type, best.text(), null))
                && !(describesAnother(question) && aboutWhatIsAsked(question, best.text()))) {
            return Optional.empty();
        }
        String lowerQuestion = question.toLowerCase(Locale.ROOT);
        Hop found = null;
        double foundScore = -1;
        Matcher m = NAME.matcher(body(best.text()));
        while (m.find()) {
            String name = m.group().strip();
            if (name.length() < 3 || lowerQuestion.contains(name.toLowerCase(Locale.ROOT))) {
                continue;
            }
            for (List<Candidate> paragraph : paragraphsTitled(name, candidates)) {
                if (paragraph.contains(best)) {
                    continue;
                }
                for (Candidate c : paragraph) {
                    ShortAnswer.Answer a = ShortAnswer.of(question, type, c.text(), (LocalDate) null);
                    double score = scores.getOrDefault(c, 0.0);
                    if (answers(question, type, a) && score > foundScore) {
                        found = new Hop(best, c, a);
                        foundScore = score;
                    }
                }
            }
        }
        return Optional.ofNullable(found);
    }

    /** The retrieved paragraphs whose title is the name or contains it: a heading sentence and those after it up to the next heading. */
    static List<List<Candidate>> paragraphsTitled(String name, List<Candidate> candidates) {
        List<List<Candidate>> paragraphs = new ArrayList<>();
        String lowerName = name.toLowerCase(Locale.ROOT);
        for (int i = 0; i < candidates.size(); i++) {
            Candidate c = candidates.get(i);
            int body = ShortAnswer.headingEnd(c.text());
            if (body == 0) {
                continue;
            }
            String title = c.text()
                    .substring(0, body)
                    .strip()
                    .replaceFirst("\\s*\\([^)]*\\)$", "")
                    .toLowerCase(Locale.ROOT);
            if (!title.contains(lowerName) && !lowerName.contains(title)) {
                continue;
            }
            List<Candidate> paragraph = new ArrayList<>(List.of(c));
            for (int j = i + 1; j < candidates.size(); j++) {
                Candidate next = candidates.get(j);
                if (!next.documentId().equals(c.documentId())
                        || next.chunkOrdinal() != c.chunkOrdinal()
                        || ShortAnswer.headingEnd(next.text()) > 0) {
                    break;
                }
                paragraph.add(next);
            }
            paragraphs.add(paragraph);
        }
        return paragraphs;
    }

    /** "a university that is located...", "the King who made...": the question describes a second entity by a relative clause. */
    static boolean describesAnother(String question) {
        return RELATIVE_CLAUSE.matcher(question).find();
    }

    /** Whether the sentence's title names something the question names: it is the first hop's paragraph, not the second's. */
    private static boolean aboutWhatIsAsked(String question, String sentence) {
        int body = ShortAnswer.headingEnd(sentence);
        if (body == 0) {
            return false;
        }
        String title = sentence.substring(0, body).strip().replaceFirst("\\s*\\([^)]*\\)$", "");
        return question.toLowerCase(Locale.ROOT).contains(title.toLowerCase(Locale.ROOT));
    }

    private static String body(String sentence) {
        return sentence.substring(ShortAnswer.headingEnd(sentence));
    }
}
