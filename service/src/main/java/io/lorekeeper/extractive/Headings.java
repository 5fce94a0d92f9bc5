package io.lorekeeper.extractive;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

import io.lorekeeper.text.Span;

/**
 * Recognises the lines of a text that name a part of it rather than say something: chapter titles
 * ("CHAPTER XII.", "The Pequod Meets The Rachel."), headings in capitals ("END OF THE SECOND STAGE"),
 * table-of-contents lines and title-page fields. Such a line shares many words with a question about
 * its chapter, so it ranks high, yet it never answers one: it is neither a short answer nor a passage.
 *
 * <p>A heading stands on lines of its own (a sentence that starts or ends inside a line of prose is
 * not one), is short, does not end as speech or a question does, and is set as a title: its letters
 * mostly capitals, a part word ({@code CHAPTER}, {@code BOOK}) first, or every longer word capitalised.
 * A title line followed directly by its paragraph (an encyclopedia entry's) is part of a sentence, not
 * a line of its own, and is left to the answer rules that read it.
 */
final class Headings {

    private static final int MAX_WORDS = 14;
    private static final Pattern PART = Pattern.compile(
            "^((chapter|book|part|volume|vol\\.|stave|act|scene|canto|epilogue|prologue|preface|contents|"
                    + "introduction|appendix|footnotes?)\\b|(title|author|release date|language|produced by):).*",
            Pattern.CASE_INSENSITIVE);
    /** Words a title leaves in lower case ("The Loss of the Ship"). */
    private static final Set<String> MINOR = Set.of(
            "a", "an", "the", "of", "and", "or", "in", "on", "at", "to", "for", "with", "by", "from", "into", "upon",
            "his", "her", "its", "their", "as", "but", "nor", "o'", "de", "la", "le", "von", "van");

    private Headings() {}

    /** Whether the sentence at {@code local} of {@code text} is a heading line (or lines). */
    static boolean isHeading(String text, Span local) {
        if (!standsAlone(text, local)) {
            return false;
        }
        String line = local.of(text).strip();
        String[] words = line.split("\\s+");
        if (line.isEmpty() || words.length > MAX_WORDS || endsAsSpeech(line)) {
            return false;
        }
        return PART.matcher(line).matches() || mostlyCapitals(line) || titleCased(words);
    }

    /** Nothing but blanks between the sentence and the line breaks (or the text's ends) around it. */
    private static boolean standsAlone(String text, Span local) {
        for (int i = local.start() - 1; i >= 0; i--) {
            char c = text.charAt(i);
            if (c == '\n') {
                break;
            }
            if (!Character.isWhitespace(c)) {
                return false;
            }
        }
        for (int i = local.end(); i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n') {
                return true;
            }
            if (!Character.isWhitespace(c)) {
                return false;
            }
        }
        return true;
    }

    private static boolean endsAsSpeech(String line) {
        char last = line.charAt(line.length() - 1);
        return last == '?'
                || last == '!'
                || last == '"'
                || last == '”'
                || last == '’'
                || last == '\''
                || line.indexOf('“') >= 0
                || line.indexOf('"') >= 0;
    }

    private static boolean mostlyCapitals(String line) {
        int upper = 0;
        int letters = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (Character.isLetter(c)) {
                letters++;
                if (Character.isUpperCase(c)) {
                    upper++;
                }
            }
        }
        return letters >= 3 && upper >= 0.8 * letters;
    }

    /** Every word but the minor ones starts with a capital, and at least one word is longer than three letters. */
    private static boolean titleCased(String[] words) {
        boolean longWord = false;
        for (String raw : words) {
            String word = raw.replaceAll("^[^\\p{L}\\p{N}]+|[^\\p{L}\\p{N}]+$", "");
            if (word.isEmpty() || MINOR.contains(word.toLowerCase(Locale.ROOT))) {
                continue;
            }
            if (!Character.isUpperCase(word.charAt(0)) && !Character.isDigit(word.charAt(0))) {
                return false;
            }
            longWord |= word.length() > 3;
        }
        return longWord;
    }
}
