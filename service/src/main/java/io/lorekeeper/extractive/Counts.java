package io.lorekeeper.extractive;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.lorekeeper.text.Terms;

/**
 * What a "how many" question counts, and whether a sentence counts it. "How many copies of the
 * novel sold?" is answered by "sold more than 250 million copies", not by "a collection of 25
 * stories" that happens to sit beside the question's other words: any number makes a sentence of
 * the right type, a number of the thing asked about makes it the answer.
 */
final class Counts {

    /** "how many copies", "how many Olympic medals", "the number of inhabitants": the noun after at most one modifier. */
    private static final Pattern ASKED = Pattern.compile(
            "\\b(?:how\\s+many|number\\s+of)\\s+([\\p{L}-]+)(?:\\s+([\\p{L}-]+))?", Pattern.CASE_INSENSITIVE);

    /** A number, an optional order of magnitude ("250 million"), an optional modifier, then the word it counts. */
    private static final Pattern COUNT = Pattern.compile(
            "\\b(?:\\d[\\d,.]*|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|"
                    + "forty|fifty|hundreds|thousands|millions|dozens)"
                    + "(?:\\s+(?:hundred|thousand|million|billion))?\\s+(?:([\\p{L}-]+)\\s+)?([\\p{L}-]+)",
            Pattern.CASE_INSENSITIVE);

    private Counts() {}

    /**
     * The counted noun's stem, when the question asks for a count. A second word is taken when it is
     * a plural noun after a modifier ("how many Olympic medals"); otherwise the first word is the noun.
     */
    static Optional<String> askedNoun(String question) {
        Matcher m = ASKED.matcher(question);
        if (!m.find()) {
            return Optional.empty();
        }
        String first = m.group(1);
        String second = m.group(2);
        boolean firstIsModifier = !first.toLowerCase(Locale.ROOT).endsWith("s")
                && second != null
                && second.toLowerCase(Locale.ROOT).endsWith("s");
        return stem(firstIsModifier ? second : first);
    }

    /** Whether the sentence gives a number of the counted noun ("230 tournaments", "250 million copies", "70 member countries"). */
    static boolean counts(String sentence, String nounStem) {
        Matcher m = COUNT.matcher(sentence);
        while (m.find()) {
            if (stem(m.group(2)).filter(nounStem::equals).isPresent()
                    || m.group(1) != null
                            && stem(m.group(1)).filter(nounStem::equals).isPresent()) {
                return true;
            }
        }
        return false;
    }

    private static Optional<String> stem(String word) {
        List<String> terms = Terms.of(word);
        return terms.isEmpty() ? Optional.empty() : Optional.of(terms.getFirst());
    }
}
