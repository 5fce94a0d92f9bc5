package io.lorekeeper.extractive;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import io.lorekeeper.text.Span;
import io.lorekeeper.text.Terms;

/**
 * "Which American film actor and dancer starred in Johnny Angel?" describes what it asks for in
 * the words after "which": an encyclopedia defines its subjects in the same words ("George Raft
 * (born ...) was an American film actor and dancer ..."). The best sentence is usually about the
 * film, which the question names; the definition whose category repeats the question's
 * description, word for word, names the answer. Its subject answers (the paragraph's title when the
 * subject is a longer form of it: "John Waters" for "John Samuel Waters Jr.").
 */
final class DescribedSubject {

    /** Definitions are looked for among the sentences scoring at least this share of the best one. */
    static final double MIN_SHARE = 0.6;

    private static final int MAX_SENTENCES = 10;
    /** At least this many content words of the description repeated: "American film director", not "American". */
    private static final int MIN_WORDS = 2;

    private static final Pattern ASKED = Pattern.compile("\\b(?:which|what)\\s+(.+)", Pattern.CASE_INSENSITIVE);
    /** A capitalised subject, an optional aside ("(born 1901)", ", also known as X,"), "is/was a(n)/the", then the category. */
    private static final Pattern DEFINITION =
            Pattern.compile("^[\"“']?(\\p{Lu}[^,(\\n]{0,80}?)[\"”']?\\s*(?:\\([^)]*\\)\\s*)?(?:,[^,]{1,80},\\s*)?"
                    + "(?:is|was|are|were)\\s+(?:a|an|the)\\s+([^,;:()]+)");

    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}][\\p{L}\\p{N}'’-]*");
    private static final Set<String> JOINERS = Set.of("and", "or", "&");

    record Found(Candidate sentence, ShortAnswer.Answer answer) {}

    private DescribedSubject() {}

    /**
     * @param scored the scored sentences, best first
     */
    static Optional<Found> in(String question, List<SentenceScorer.Scored> scored) {
        Matcher asked = ASKED.matcher(question);
        if (!asked.find() || scored.isEmpty()) {
            return Optional.empty();
        }
        List<String> description = words(asked.group(1));
        Set<String> questionStems = stems(question);
        double floor = MIN_SHARE * scored.getFirst().score();
        for (SentenceScorer.Scored s : scored.subList(0, Math.min(MAX_SENTENCES, scored.size()))) {
            if (s.score() < floor) {
                break;
            }
            Optional<ShortAnswer.Answer> answer = definedBy(s.candidate().text(), description, questionStems);
            if (answer.isPresent()) {
                return Optional.of(new Found(s.candidate(), answer.get()));
            }
        }
        return Optional.empty();
    }

    /** The sentence's subject, when the sentence defines it by the question's description and the question does not name it. */
    static Optional<ShortAnswer.Answer> definedBy(
            String sentence, List<String> description, Set<String> questionStems) {
        // any short first line counts ("Yellowcraigs" above "Yellowcraig, also known as ..., is"), not
        // only a heading the text takes up: a definition must open its own line
        int body = ShortAnswer.titleLineEnd(sentence);
        Matcher m = DEFINITION.matcher(sentence.substring(body));
        if (!m.find()) {
            return Optional.empty();
        }
        List<String> category = words(m.group(2));
        if (repeated(category, description) < MIN_WORDS) {
            return Optional.empty();
        }
        String subject = m.group(1).strip();
        Set<String> subjectStems = stems(subject);
        if (subjectStems.isEmpty() || subjectStems.stream().anyMatch(questionStems::contains)) {
            return Optional.empty();
        }
        if (body > 0) {
            String title = sentence.substring(0, body).strip().replaceFirst("\\s*\\([^)]*\\)$", "");
            Set<String> titleStems = stems(title);
            if (!titleStems.isEmpty() && subject.length() > title.length() && subjectStems.containsAll(titleStems)) {
                int start = sentence.indexOf(title);
                return Optional.of(new ShortAnswer.Answer(
                        title, new Span(start, start + title.length()), false, ShortAnswer.Kind.NAMES));
            }
        }
        int start = body + m.start(1);
        return Optional.of(new ShortAnswer.Answer(
                subject, new Span(start, start + subject.length()), false, ShortAnswer.Kind.NAMES));
    }

    /** How many content words the category repeats from the description's start, in order, before the two part. */
    private static int repeated(List<String> category, List<String> description) {
        int count = 0;
        for (int i = 0; i < Math.min(category.size(), description.size()); i++) {
            String word = category.get(i);
            if (!word.equals(description.get(i))) {
                break;
            }
            if (!JOINERS.contains(word) && !Terms.of(word).isEmpty()) {
                count++;
            }
        }
        return count;
    }

    /** Lower-cased words as stems; words with no stem (stop words) are kept as they are, so positions line up. */
    private static List<String> words(String text) {
        List<String> out = new ArrayList<>();
        Matcher w = WORD.matcher(text);
        while (w.find()) {
            List<String> terms = Terms.of(w.group());
            out.add(terms.isEmpty() ? w.group().toLowerCase(java.util.Locale.ROOT) : terms.getFirst());
        }
        return out;
    }

    private static Set<String> stems(String text) {
        return Terms.of(text).stream().collect(Collectors.toSet());
    }
}
