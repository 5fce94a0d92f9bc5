package io.lorekeeper.text;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How closely a question's words stand together in a passage: the share of the question's distinct
 * terms ({@link Terms}) found within one window of consecutive words. A passage that answers a question
 * usually says the question's words near each other; one that only mentions the same names says them
 * apart. Words that shape the question rather than name what it asks about ("who", "what is the name
 * of", "called", pronouns) are not the question's terms.
 */
public final class WordProximity {

    private static final Set<String> QUESTION_FORM = Set.copyOf(Terms.of("who whom whose what which where when why how"
            + " do does did has have had were been name named called he she him her his hers they them their it its"
            + " i me my you your we us our from about"));
    /** Letters a word must share with a query term before it is stemmed: most words are not. */
    private static final int PREFIX = 4;

    private static final int MAX_STEMS = 200_000;
    private static final Map<String, String> STEMS = new ConcurrentHashMap<>();

    /** Each term's number, for counting the distinct terms inside a window. */
    private final Map<String, Integer> ids = new HashMap<>();

    private final Set<String> prefixes = new HashSet<>();

    private WordProximity(Set<String> terms) {
        for (String term : terms) {
            ids.put(term, ids.size());
            prefixes.add(term.substring(0, Math.min(PREFIX, term.length())));
        }
    }

    /** The distinct terms of a question that say what it is about, ready to be looked for in passages. */
    public static WordProximity of(String question) {
        Set<String> terms = new HashSet<>(Terms.of(question));
        terms.removeAll(QUESTION_FORM);
        return new WordProximity(terms);
    }

    /** Given terms as they are (already stemmed), for a caller that chose them itself. */
    static WordProximity ofTerms(Set<String> terms) {
        return new WordProximity(terms);
    }

    public Set<String> terms() {
        return Set.copyOf(ids.keySet());
    }

    /** How many distinct terms the question has: with fewer than two nothing can stand together. */
    public int size() {
        return ids.size();
    }

    /** The most of the terms found within {@code window} consecutive words of {@code text}, as a share. */
    public double together(String text, int window) {
        List<int[]> found = new ArrayList<>(); // [word position, term id]
        int position = 0;
        int i = 0;
        while (i < text.length()) {
            while (i < text.length() && !Character.isLetterOrDigit(text.charAt(i))) {
                i++;
            }
            int start = i;
            while (i < text.length() && (Character.isLetterOrDigit(text.charAt(i)) || isApostrophe(text.charAt(i)))) {
                i++;
            }
            if (i > start) {
                // most words share no prefix with a query term: tested in place, without a copy
                if (startsWithAny(text, start, i)) {
                    Integer id = ids.get(stem(text.substring(start, i).toLowerCase(Locale.ROOT)));
                    if (id != null) {
                        found.add(new int[] {position, id});
                    }
                }
                position++;
            }
        }
        // a window sliding over the matches, counting the distinct terms inside it
        int[] inside = new int[ids.size()];
        int distinct = 0;
        int best = 0;
        for (int to = 0, from = 0; to < found.size(); to++) {
            if (inside[found.get(to)[1]]++ == 0) {
                distinct++;
            }
            while (found.get(to)[0] - found.get(from)[0] > window) {
                if (--inside[found.get(from++)[1]] == 0) {
                    distinct--;
                }
            }
            best = Math.max(best, distinct);
        }
        return best < 2 ? 0 : (double) best / ids.size();
    }

    /** The word's term ("" for a stop word), remembered: analysing a word costs far more than looking it up. */
    private static String stem(String word) {
        String known = STEMS.get(word);
        if (known != null) {
            return known;
        }
        if (STEMS.size() > MAX_STEMS) {
            STEMS.clear(); // a vocabulary this large is mostly one-off tokens: start again rather than track use
        }
        List<String> terms = Terms.of(word);
        String stem = terms.isEmpty() ? "" : terms.getFirst();
        STEMS.put(word, stem);
        return stem;
    }

    private boolean startsWithAny(String text, int start, int end) {
        for (String prefix : prefixes) {
            if (end - start >= prefix.length() && text.regionMatches(true, start, prefix, 0, prefix.length())) {
                return true;
            }
        }
        return false;
    }

    private static boolean isApostrophe(char c) {
        return c == '\'' || c == '\u2019';
    }
}
