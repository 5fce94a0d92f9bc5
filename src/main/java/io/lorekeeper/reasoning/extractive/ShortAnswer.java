package io.lorekeeper.reasoning.extractive;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.lucene.analysis.en.EnglishAnalyzer;

import io.lorekeeper.text.Span;
import io.lorekeeper.text.Terms;

/**
 * The part of a supporting sentence that answers the question, by the kind of answer asked for:
 * a date for "when" (relative expressions resolved against the date the sentence was said on),
 * names for "who", a place for "where", a number for "how many", and otherwise the phrase that the
 * sentence adds to the question's own words. Falls back to the whole sentence when nothing of the
 * kind is there, so an answer is never emptier than its evidence.
 *
 * <p>The answer is a verbatim piece of the sentence ({@code span}, relative to it), or, for a
 * resolved time expression, derived from that piece ({@code derived}: "yesterday" said on 8 May
 * 2023 answers "7 May 2023", and the span still points at "yesterday").
 */
final class ShortAnswer {

    enum Kind {
        DATE, SESSION_DATE, NAMES, PLACE, NUMBER, PHRASE, REASON, SENTENCE
    }

    /**
     * @param text    the answer
     * @param span    where in the sentence it comes from
     * @param derived whether {@code text} is computed from the span rather than copied from it
     */
    record Answer(String text, Span span, boolean derived, Kind kind) {

        boolean isWholeSentence() {
            return kind == Kind.SENTENCE;
        }
    }

    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}][\\p{L}\\p{N}'’&-]*");
    private static final Pattern NAME = Pattern.compile("\\p{Lu}[\\p{L}'’-]+(?:\\s+(?:(?:of|de|van|von|the)\\s+)?\\p{Lu}[\\p{L}'’-]+)*");
    private static final Pattern PLACE = Pattern.compile("\\b(?:in|at|to|from|near|into|across|visited|around)\\s+((?:the\\s+)?\\p{Lu}[\\p{L}'’-]+"
            + "(?:\\s+(?:of\\s+)?\\p{Lu}[\\p{L}'’-]+)*)");
    private static final Pattern NUMBER = Pattern.compile("\\b(\\d+(?:[.,]\\d+)?%?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
            + "twenty|thirty|forty|fifty|hundred|thousand|million|dozen|several|once|twice|a couple|a few)\\b(\\s+[\\p{L}-]+)?",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern REASON = Pattern.compile("\\b(because|since|so that|as a way to|in order to|due to|thanks to)\\b\\s*",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern BOUNDARY = Pattern.compile("[,;:!?.()\"“”—–]|\\s-\\s");
    /** Words that carry no answer of their own: pronouns, auxiliaries, fillers of speech. */
    private static final Set<String> FILLER = new HashSet<>(List.of("i", "me", "my", "mine", "myself", "you", "your", "yours", "we", "us",
            "our", "ours", "he", "him", "his", "she", "her", "hers", "they", "them", "their", "theirs", "it", "its", "this", "that",
            "these", "those", "is", "am", "are", "was", "were", "be", "been", "being", "have", "has", "had", "do", "does", "did",
            "so", "just", "really", "very", "too", "also", "oh", "yeah", "yes", "wow", "hey", "well", "like", "got", "get", "gonna",
            "i'm", "i've", "i'd", "it's", "that's", "what's", "we're", "you're", "i’m", "it’s", "can", "could", "would", "will",
            "should", "might", "some", "lot", "lots", "thing", "things", "stuff", "something", "actually", "totally", "definitely",
            "recently", "now", "then", "there", "here", "what", "which", "who", "when", "where", "how", "why", "all", "thanks",
            "thank", "great", "awesome", "amazing", "cool", "nice", "glad", "happy", "love", "loved", "one", "other", "about",
            "sounds", "sound", "any", "anything", "everything", "looking", "try", "trying", "getting", "going", "know", "think",
            "guess", "mean", "means", "sure", "kind", "sort", "way", "pretty", "super", "last", "ya", "yep", "wow", "haha",
            "remember", "felt", "feel", "feels", "made", "make", "makes", "said", "say", "says", "tell", "told", "see", "saw"));
    private static final Set<String> NOT_NAMES = Set.of("I", "The", "A", "An", "He", "She", "It", "They", "We", "You", "But", "And",
            "When", "What", "Then", "There", "This", "That", "Yes", "No", "Oh", "Well", "If", "So", "As", "My", "His", "Her", "Our",
            "Their", "Your", "In", "On", "At", "Of", "For", "With", "Not", "Now", "How", "Hey", "Hi", "Wow", "Thanks", "Mr", "Mrs",
            "Ms", "Miss", "Sir", "Dr", "Madam", "Lady", "Lord", "Chapter", "Session", "Yeah", "Sure", "Great", "Congrats",
            "Awesome", "Cool", "Nice", "Sounds", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday",
            "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December",
            "Yesterday", "Today", "Tomorrow", "Tonight", "Last", "Next", "Meet", "Thank", "Good", "Glad", "Sorry", "Hope", "Let",
            "Just", "Also", "Maybe", "Really", "Definitely", "Totally", "Haha", "Lol", "Anyway", "Speaking", "Absolutely");

    static {
        EnglishAnalyzer.ENGLISH_STOP_WORDS_SET.forEach(w -> FILLER.add(w instanceof char[] chars ? new String(chars) : w.toString()));
    }

    private ShortAnswer() {
    }

    /**
     * @param said the date the sentence was said on (a conversation's session date), or null
     */
    static Answer of(String question, AnswerType type, String sentence, LocalDate said) {
        Optional<Answer> typed = switch (type) {
            case TIME -> time(sentence, said);
            case PERSON -> names(question, sentence);
            case PLACE -> place(question, sentence);
            case QUANTITY -> number(question, sentence);
            case OTHER -> Optional.empty();
        };
        if (typed.isPresent()) {
            return typed.get();
        }
        if (question.strip().toLowerCase(Locale.ROOT).startsWith("why")) {
            Optional<Answer> reason = reason(sentence);
            if (reason.isPresent()) {
                return reason.get();
            }
        }
        return phrase(question, sentence).orElseGet(() -> new Answer(sentence, new Span(0, sentence.length()), false, Kind.SENTENCE));
    }

    /**
     * For "when": the sentence's first time expression, resolved; in a conversation a sentence
     * without one is taken to speak of its own day ("I just signed up" answers with the session date).
     */
    static Optional<Answer> time(String sentence, LocalDate said) {
        Optional<TimeExpressions.Found> found = TimeExpressions.first(sentence, said);
        if (found.isPresent()) {
            TimeExpressions.Found f = found.get();
            return Optional.of(new Answer(f.resolved(), f.span(), f.derived() || !f.resolved().equals(f.written()), Kind.DATE));
        }
        if (said != null) {
            return Optional.of(new Answer(TimeExpressions.format(said), new Span(0, sentence.length()), true, Kind.SESSION_DATE));
        }
        return Optional.empty();
    }

    /** For "who": the names in the sentence that the question does not already contain, in order. */
    static Optional<Answer> names(String question, String sentence) {
        Set<String> asked = words(question);
        List<Span> names = new ArrayList<>();
        Matcher m = NAME.matcher(sentence);
        while (m.find()) {
            String name = m.group();
            List<String> parts = List.of(name.split("\\s+"));
            if (parts.stream().allMatch(p -> NOT_NAMES.contains(p) || asked.contains(stem(p)))) {
                continue;
            }
            int start = m.start();
            // "Then Rob" / "Thanks Rob": drop a leading word that is not part of the name
            while (parts.size() > 1 && NOT_NAMES.contains(parts.getFirst())) {
                start = sentence.indexOf(parts.get(1), start + parts.getFirst().length());
                parts = parts.subList(1, parts.size());
            }
            names.add(new Span(start, m.end()));
        }
        if (names.isEmpty()) {
            return Optional.empty();
        }
        Span all = new Span(names.getFirst().start(), names.getLast().end());
        String text = names.size() == 1 ? names.getFirst().of(sentence)
                : String.join(", ", names.stream().map(s -> s.of(sentence)).distinct().toList());
        return Optional.of(new Answer(text, all, names.size() > 1, Kind.NAMES));
    }

    /** For "where": a capitalised place after a preposition of place, not named in the question. */
    static Optional<Answer> place(String question, String sentence) {
        Set<String> asked = words(question);
        Matcher m = PLACE.matcher(sentence);
        while (m.find()) {
            String place = m.group(1);
            String bare = place.replaceFirst("^the\\s+", "");
            if (NOT_NAMES.contains(bare.split("\\s+")[0]) || asked.contains(stem(bare.split("\\s+")[0]))) {
                continue;
            }
            return Optional.of(new Answer(place, new Span(m.start(1), m.end(1)), false, Kind.PLACE));
        }
        return Optional.empty();
    }

    /**
     * For "how many / much / old": the number that counts what the question asks about ("how many
     * people" → "12 people", not the "31 times" before it), else the first number, with the word it
     * counts when that word is not a filler.
     */
    static Optional<Answer> number(String question, String sentence) {
        Set<String> asked = words(question);
        Answer first = null;
        Matcher m = NUMBER.matcher(sentence);
        while (m.find()) {
            if (m.group(1).chars().allMatch(Character::isDigit) && m.group(1).length() == 4 && !question.toLowerCase(Locale.ROOT).contains("year")) {
                continue; // a year, not a count
            }
            int end = m.end(1);
            String counted = m.group(2) == null ? null : m.group(2).strip();
            if (counted != null && !FILLER.contains(counted.toLowerCase(Locale.ROOT))) {
                end = m.end(2);
            }
            Answer answer = new Answer(sentence.substring(m.start(1), end), new Span(m.start(1), end), false, Kind.NUMBER);
            if (counted != null && asked.contains(stem(counted))) {
                return Optional.of(answer);
            }
            if (first == null) {
                first = answer;
            }
        }
        return Optional.ofNullable(first);
    }

    /** For "why": what follows "because" (or the like), up to the end of its clause. */
    static Optional<Answer> reason(String sentence) {
        Matcher m = REASON.matcher(sentence);
        if (!m.find()) {
            return Optional.empty();
        }
        int start = m.start();
        int end = clauseEnd(sentence, m.end());
        if (end - m.end() < 3) {
            return Optional.empty();
        }
        return Optional.of(new Answer(sentence.substring(start, end).strip(), new Span(start, end), false, Kind.REASON));
    }

    /**
     * What the sentence says beyond the question: the clause-bounded run of words that are not the
     * question's own, with the most content words, trimmed of pronouns and function words at both
     * ends. A run right after the question's words ("Rob invited me to [a yoga class]") wins a tie.
     */
    static Optional<Answer> phrase(String question, String sentence) {
        Set<String> asked = words(question);
        List<Token> tokens = new ArrayList<>();
        Matcher w = WORD.matcher(sentence);
        while (w.find()) {
            String lower = w.group().toLowerCase(Locale.ROOT);
            boolean fromQuestion = asked.contains(stem(w.group()));
            boolean filler = FILLER.contains(lower) || FILLER.contains(lower.replaceFirst("['’]s$", ""));
            tokens.add(new Token(w.start(), w.end(), fromQuestion, filler));
        }
        Span best = null;
        double bestScore = 0;
        int i = 0;
        while (i < tokens.size()) {
            if (tokens.get(i).fromQuestion()) {
                i++;
                continue;
            }
            int j = i;
            while (j + 1 < tokens.size() && !tokens.get(j + 1).fromQuestion() && !boundaryBetween(sentence, tokens.get(j), tokens.get(j + 1))) {
                j++;
            }
            int first = i;
            int last = j;
            while (first <= last && tokens.get(first).filler()) {
                first++;
            }
            while (last >= first && tokens.get(last).filler()) {
                last--;
            }
            if (first <= last) {
                long content = tokens.subList(first, last + 1).stream().filter(t -> !t.filler()).count();
                boolean afterQuestion = i > 0 && tokens.get(i - 1).fromQuestion() && !boundaryBetween(sentence, tokens.get(i - 1), tokens.get(i));
                double score = Math.min(content, 6) + (afterQuestion ? 1.5 : 0) - Math.max(0, content - 6) * 0.25;
                if (score > bestScore) {
                    bestScore = score;
                    best = new Span(tokens.get(first).start(), tokens.get(last).end());
                }
            }
            i = j + 1;
        }
        if (best == null) {
            return Optional.empty();
        }
        return Optional.of(new Answer(best.of(sentence), best, false, Kind.PHRASE));
    }

    private record Token(int start, int end, boolean fromQuestion, boolean filler) {
    }

    private static boolean boundaryBetween(String sentence, Token a, Token b) {
        return BOUNDARY.matcher(sentence.substring(a.end(), b.start())).find();
    }

    private static int clauseEnd(String sentence, int from) {
        Matcher b = Pattern.compile("[;:!?.()\"“”—]").matcher(sentence);
        return b.find(from) ? b.start() : sentence.length();
    }

    /** The question's words as stems (question words themselves included, so they never count as new). */
    private static Set<String> words(String question) {
        Set<String> stems = new HashSet<>();
        Matcher m = WORD.matcher(question);
        while (m.find()) {
            stems.add(stem(m.group()));
        }
        return stems;
    }

    private static String stem(String word) {
        String lower = word.toLowerCase(Locale.ROOT).replaceFirst("['’]s$", "");
        List<String> terms = Terms.of(lower);
        return terms.isEmpty() ? lower : terms.getFirst();
    }
}
