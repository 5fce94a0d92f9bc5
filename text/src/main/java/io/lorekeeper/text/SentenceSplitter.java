package io.lorekeeper.text;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Finds sentence boundaries in English prose and dialogue, returning exact spans into the text.
 *
 * <p>Written for hard-wrapped books and chat turns: single line breaks do not end a sentence, a
 * blank line always does, honorifics such as "Mr." and initials do not, and a "!" or "?" inside
 * quoted speech followed by a lower-case word ("“Hold your noise!” cried a terrible voice") keeps
 * the sentence going.
 */
public final class SentenceSplitter {

    private static final Set<String> ABBREVIATIONS = Set.of(
            "mr", "mrs", "ms", "dr", "st", "jr", "sr", "prof", "capt", "col", "gen", "lt", "rev", "hon", "messrs",
            "mme", "mlle", "vs", "etc", "e.g", "i.e", "mt", "ft", "sgt", "esq", "co", "inc", "ltd", "vol", "fig",
            "approx", "dept", "est", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov",
            "dec");

    private SentenceSplitter() {}

    public static List<Span> split(String text) {
        return split(text, 0, text.length());
    }

    /** Sentences within {@code [from, to)}, trimmed of surrounding whitespace; never empty. */
    public static List<Span> split(String text, int from, int to) {
        List<Span> sentences = new ArrayList<>();
        int start = from;
        int i = from;
        while (i < to) {
            char c = text.charAt(i);
            if (c == '\n' && isBlankLineAhead(text, i, to)) {
                addTrimmed(text, start, i, sentences);
                start = i;
                i = skipWhitespace(text, i, to);
                continue;
            }
            if (c == '.' || c == '!' || c == '?' || c == '…') {
                int end = i + 1;
                while (end < to && isTerminatorOrCloser(text.charAt(end))) {
                    end++;
                }
                if (end >= to || Character.isWhitespace(text.charAt(end))) {
                    int next = skipWhitespace(text, end, to);
                    if (isBoundary(text, start, i, next, to)) {
                        addTrimmed(text, start, end, sentences);
                        start = end;
                        i = next;
                        continue;
                    }
                }
                i = end;
                continue;
            }
            i++;
        }
        addTrimmed(text, start, to, sentences);
        return sentences;
    }

    private static boolean isBoundary(String text, int sentenceStart, int mark, int next, int to) {
        if (next >= to) {
            return true;
        }
        char following = text.charAt(next);
        if (Character.isLowerCase(following)) {
            return false;
        }
        if (text.charAt(mark) != '.') {
            return true;
        }
        String word = wordBefore(text, sentenceStart, mark);
        if (word.length() == 1 && Character.isUpperCase(word.charAt(0)) && !word.equals("I")) {
            return false; // an initial, as in "J. Smith" (but "said I." ends a sentence)
        }
        if (word.equalsIgnoreCase("no")) {
            return !Character.isDigit(following); // "No. 5" is a number; "No." alone is an answer
        }
        return !ABBREVIATIONS.contains(word.toLowerCase(Locale.ROOT));
    }

    private static String wordBefore(String text, int floor, int mark) {
        int s = mark;
        while (s > floor && (Character.isLetter(text.charAt(s - 1)) || text.charAt(s - 1) == '.')) {
            s--;
        }
        return text.substring(s, mark);
    }

    private static boolean isTerminatorOrCloser(char c) {
        return c == '.' || c == '!' || c == '?' || c == '…' || c == '"' || c == '\'' || c == '”' || c == '’' || c == ')'
                || c == ']' || c == '»';
    }

    private static boolean isBlankLineAhead(String text, int newline, int to) {
        for (int j = newline + 1; j < to; j++) {
            char c = text.charAt(j);
            if (c == '\n') {
                return true;
            }
            if (!Character.isWhitespace(c)) {
                return false;
            }
        }
        return false;
    }

    private static int skipWhitespace(String text, int i, int to) {
        while (i < to && Character.isWhitespace(text.charAt(i))) {
            i++;
        }
        return i;
    }

    private static void addTrimmed(String text, int start, int end, List<Span> out) {
        while (start < end && Character.isWhitespace(text.charAt(start))) {
            start++;
        }
        while (end > start && Character.isWhitespace(text.charAt(end - 1))) {
            end--;
        }
        if (end > start) {
            out.add(new Span(start, end));
        }
    }
}
