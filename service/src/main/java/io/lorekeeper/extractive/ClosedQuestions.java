package io.lorekeeper.extractive;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.lorekeeper.text.Terms;

/**
 * Questions that no span answers as such: yes/no questions ("Did Jon and Gina both dance?") and
 * questions that offer their own alternatives ("Who is older, Annie Morton or Terry Richardson?").
 * The answer is derived from the cited evidence: "Yes" when the best sentence holds what the
 * question asserts, and for alternatives the one the evidence supports.
 */
final class ClosedQuestions {

    /** Share of the question's content terms the evidence must hold for a "Yes". */
    static final double YES_COVERAGE = 0.5;

    private static final Pattern YES_NO = Pattern.compile(
            "^(did|does|do|is|are|was|were|has|have|had|can|could|would|will|should)\\b.*", Pattern.CASE_INSENSITIVE);
    /** "..., A or B?" / "... A or B?": the two alternatives, each a short run of words before the question mark. */
    private static final Pattern ALTERNATIVES = Pattern.compile(
            "(?:,|\\b(?:older|younger|first|earlier|later|more|less|bigger|smaller|larger|longer|shorter)\\b)\\s*(?:the\\s+)?([^,?]{2,60}?)\\s+or\\s+(?:the\\s+)?([^,?]{2,60}?)\\s*\\??$",
            Pattern.CASE_INSENSITIVE);

    /** "Does John live close to a beach or the mountains?": the noun phrases either side of the closing "or". */
    private static final Pattern NOUN_OR_NOUN = Pattern.compile(
            "\\b(?:a|an|the|to|in|at|on|of|for|with|by)\\s+((?:(?!(?:a|an|the)\\b)[\\p{L}'-]+\\s+){0,2}[\\p{L}'-]+)\\s+or\\s+(?:(?:a|an|the)\\s+)?"
                    + "([\\p{L}'-]+(?:\\s+[\\p{L}'-]+){0,2})\\s*\\?$",
            Pattern.CASE_INSENSITIVE);

    private ClosedQuestions() {}

    static boolean isYesNo(String question) {
        return YES_NO.matcher(question.strip()).matches()
                && alternatives(question).isEmpty();
    }

    /** The alternatives a question offers, in its order; empty when it offers none. */
    static List<String> alternatives(String question) {
        Matcher m = ALTERNATIVES.matcher(question.strip());
        if (!m.find()) {
            m = NOUN_OR_NOUN.matcher(question.strip());
            if (!YES_NO.matcher(question.strip()).matches() || !m.find()) {
                return List.of();
            }
        }
        return List.of(m.group(1).strip(), m.group(2).strip());
    }

    /** "Yes" when the evidence holds at least {@link #YES_COVERAGE} of the question's content terms, else "No". */
    static String yesOrNo(String question, String evidence) {
        Set<String> asked = new HashSet<>(Terms.of(question));
        if (asked.isEmpty()) {
            return "No";
        }
        Set<String> held = new HashSet<>(Terms.of(evidence));
        long covered = asked.stream().filter(held::contains).count();
        return (double) covered / asked.size() >= YES_COVERAGE ? "Yes" : "No";
    }

    /** Which way a comparison goes: -1 for the earlier/older, +1 for the later/younger, 0 when it is not about time. */
    static int timeDirection(String question) {
        String q = question.toLowerCase(Locale.ROOT);
        if (q.matches(".*\\b(older|oldest|first|earlier|earliest|before)\\b.*")) {
            return -1;
        }
        if (q.matches(".*\\b(younger|youngest|later|latest|last|more recent|newer|after)\\b.*")) {
            return 1;
        }
        return 0;
    }

    /** The year of the first date or year in a sentence, for comparing "who is older" by birth dates. */
    static Optional<Integer> firstYear(String sentence) {
        List<TimeExpressions.Found> found = new ArrayList<>(TimeExpressions.in(sentence, null));
        for (TimeExpressions.Found f : found) {
            Matcher y = Pattern.compile("\\b(\\d{4})\\b").matcher(f.resolved());
            if (y.find()) {
                return Optional.of(Integer.parseInt(y.group(1)));
            }
        }
        return Optional.empty();
    }
}
