package io.lorekeeper.eval;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds a gold evidence snippet in a document's canonical text: verbatim, else with whitespace runs
 * collapsed, else approximately. The approximate step exists for LooGLE, whose evidence was copied
 * from another rendering of the page (stray "?" at line ends, changed punctuation, a word or two
 * different): about half of its long-dependency snippets are not in the text verbatim.
 */
final class TextLocator {

    private TextLocator() {}

    /** {start, end} of the snippet in the text, or null when it is not there. */
    static int[] find(String text, String snippet) {
        String needle = snippet.strip();
        if (needle.isEmpty()) {
            return null;
        }
        int at = text.indexOf(needle);
        if (at >= 0) {
            return new int[] {at, at + needle.length()};
        }
        // Collapse whitespace in both, keeping where each collapsed character came from.
        StringBuilder collapsed = new StringBuilder(text.length());
        List<Integer> origin = new ArrayList<>(text.length());
        boolean space = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c)) {
                if (!space) {
                    collapsed.append(' ');
                    origin.add(i);
                }
                space = true;
            } else {
                collapsed.append(c);
                origin.add(i);
                space = false;
            }
        }
        String n = needle.replaceAll("\\s+", " ");
        int found = collapsed.indexOf(n);
        if (found < 0) {
            return approximately(text, needle);
        }
        return new int[] {origin.get(found), origin.get(found + n.length() - 1) + 1};
    }

    static final int ANCHOR_WORDS = 5;
    static final double MIN_SHARED_WORDS = 0.8;
    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");

    private record Word(String text, int start, int end) {}

    /**
     * Anchors the snippet at the first run of {@value #ANCHOR_WORDS} of its words (case and
     * punctuation ignored) that occurs in the text, stretches the span over as many words as the
     * snippet has (ends snapped to the snippet's first and last words when they are a few words off),
     * and accepts it when at least {@value #MIN_SHARED_WORDS} of the snippet's words
     * are in that span.
     */
    static int[] approximately(String text, String snippet) {
        List<Word> needle = words(snippet);
        if (needle.size() < ANCHOR_WORDS) {
            return null;
        }
        List<Word> haystack = words(text);
        StringBuilder joined = new StringBuilder(text.length());
        List<Integer> wordAt = new ArrayList<>(); // joined offset of each word
        for (Word w : haystack) {
            joined.append(' ');
            wordAt.add(joined.length());
            joined.append(w.text());
        }
        joined.append(' ');
        for (int j = 0; j + ANCHOR_WORDS <= needle.size(); j++) {
            StringBuilder gram = new StringBuilder(" ");
            needle.subList(j, j + ANCHOR_WORDS)
                    .forEach(w -> gram.append(w.text()).append(' '));
            int at = joined.indexOf(gram.toString());
            if (at < 0) {
                continue;
            }
            int anchor = Collections.binarySearch(wordAt, at + 1);
            // Words added or dropped shift the ends: snap each to the snippet's own first or last word nearby.
            int slack = Math.max(2, needle.size() / 10);
            int first = nearest(haystack, needle.getFirst().text(), Math.max(0, anchor - j), slack);
            int last = nearest(
                    haystack, needle.getLast().text(), Math.min(haystack.size() - 1, first + needle.size() - 1), slack);
            Map<String, Integer> window = new HashMap<>();
            haystack.subList(first, last + 1).forEach(w -> window.merge(w.text(), 1, Integer::sum));
            int shared = 0;
            for (Word w : needle) {
                Integer left = window.get(w.text());
                if (left != null && left > 0) {
                    window.put(w.text(), left - 1);
                    shared++;
                }
            }
            return shared >= MIN_SHARED_WORDS * needle.size()
                    ? new int[] {haystack.get(first).start(), haystack.get(last).end()}
                    : null;
        }
        return null;
    }

    /** The index of {@code word} closest to {@code at} within {@code slack} words, else {@code at}. */
    private static int nearest(List<Word> words, String word, int at, int slack) {
        for (int d = 0; d <= slack; d++) {
            if (at - d >= 0 && words.get(at - d).text().equals(word)) {
                return at - d;
            }
            if (at + d < words.size() && words.get(at + d).text().equals(word)) {
                return at + d;
            }
        }
        return at;
    }

    private static List<Word> words(String s) {
        List<Word> out = new ArrayList<>();
        Matcher m = WORD.matcher(s);
        while (m.find()) {
            out.add(new Word(m.group().toLowerCase(Locale.ROOT), m.start(), m.end()));
        }
        return out;
    }
}
