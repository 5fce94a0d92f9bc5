package io.lorekeeper.extractive;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Two-hop questions over titled paragraphs: "In what city is the university where Ralph Hefferline
 * taught?" is best matched by the sentence about Hefferline, which names the bridge ("a professor
 * at Columbia University") but not the answer; the answer is in the paragraph titled with the
 * bridge's name. The names the best sentence mentions are followed to the retrieved paragraphs
 * they title, whose sentences then offer answers beside the best ones ({@link SpanRanker}, source
 * {@code hop}); one chosen from there is cited with the bridge.
 */
final class SecondHop {

    private static final Pattern NAME =
            Pattern.compile("\\b\\p{Lu}[\\p{L}'’.-]*(?:\\s+(?:(?:of|the|de|von|van)\\s+)*\\p{Lu}[\\p{L}'’.-]*)*");

    private SecondHop() {}

    /**
     * The sentences of the retrieved paragraphs titled by a name the best sentence mentions and the
     * question does not, best-scored first, at most {@code limit}: where a second hop would find the
     * answer. Whether one of them answers better than the best sentence is the ranker's call.
     *
     * @param candidates every candidate sentence in text order within its chunk
     * @param scores     each candidate's score
     */
    static List<Candidate> sentences(
            String question, Candidate best, List<Candidate> candidates, Map<Candidate, Double> scores, int limit) {
        String lowerQuestion = question.toLowerCase(Locale.ROOT);
        Set<Candidate> found = new LinkedHashSet<>();
        Matcher m = NAME.matcher(body(best.text()));
        while (m.find()) {
            String name = m.group().strip().replaceFirst("\\.$", ""); // a name ending the sentence keeps no full stop
            if (name.length() < 3 || lowerQuestion.contains(name.toLowerCase(Locale.ROOT))) {
                continue;
            }
            for (List<Candidate> paragraph : paragraphsTitled(name, candidates)) {
                if (!paragraph.contains(best)) {
                    found.addAll(paragraph);
                }
            }
        }
        return found.stream()
                .sorted(Comparator.comparingDouble((Candidate c) -> -scores.getOrDefault(c, 0.0)))
                .limit(limit)
                .toList();
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

    private static String body(String sentence) {
        return sentence.substring(ShortAnswer.headingEnd(sentence));
    }
}
