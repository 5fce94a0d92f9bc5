package io.lorekeeper.retrieval;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import io.lorekeeper.text.Terms;

/**
 * Orders the head of a fused text ranking by how closely the question's words stand together in each
 * passage: the share of the question's distinct terms found within one window of {@code window}
 * words. BM25 and a bi-encoder score a passage by its words, not by where they are, so the passage
 * that says "Miss Havisham's house, Satis House" ranks behind forty that repeat her name; the passage
 * where the question's words meet is most often the one that answers it. Words that shape the question
 * rather than name what it is about ("who", "what is the name of", "called") are not counted.
 *
 * <p>Chosen on Great Expectations' questions and measured on the two other novels (docs/evaluation.md):
 * conversations are left as they are (their one-turn units hold a few words each, where the rule only
 * counts shared terms, and it lowered LoCoMo's evidence recall).
 */
@org.springframework.stereotype.Component
final class TermProximity {

    /**
     * @param enabled whether hybrid and deep searches over texts reorder their head so
     * @param depth   how many of the fused hits are reordered (the rest keep their place after them)
     * @param window  the span of words within which the question's terms count as together
     */
    @ConfigurationProperties("lorekeeper.search.proximity")
    record Settings(
            @DefaultValue("true") boolean enabled,
            @DefaultValue("45") int depth,
            @DefaultValue("30") int window) {}

    private static final Set<String> QUESTION_FORM = Set.copyOf(Terms.of("who whom whose what which where when why how"
            + " do does did has have had were been name named called he she him her his hers they them their it its"
            + " i me my you your we us our from about"));
    /** Letters a word must share with a query term before it is stemmed: most words are not. */
    private static final int PREFIX = 4;

    private static final int MAX_STEMS = 200_000;
    private static final Map<String, String> STEMS = new java.util.concurrent.ConcurrentHashMap<>();

    private final Settings settings;

    TermProximity(Settings settings) {
        this.settings = settings;
    }

    /** {@code fused} with its first {@code depth} text hits ordered by proximity; conversations unchanged. */
    List<SearchHit> reorder(String query, List<SearchHit> fused) {
        if (!settings.enabled() || fused.size() < 2) {
            return fused;
        }
        int depth = Math.min(settings.depth(), fused.size());
        List<SearchHit> head = fused.subList(0, depth);
        if (head.stream().anyMatch(h -> !h.turnIds().isEmpty())) {
            return fused;
        }
        Set<String> terms = new HashSet<>(Terms.of(query));
        terms.removeAll(QUESTION_FORM);
        if (terms.size() < 2) {
            return fused;
        }
        Map<SearchHit, Double> together = new HashMap<>();
        for (SearchHit hit : head) {
            together.put(hit, together(terms, hit.text(), settings.window()));
        }
        List<SearchHit> ordered = new ArrayList<>(head);
        // a stable sort: hits the rule cannot tell apart keep the fused order
        ordered.sort(Comparator.comparingDouble((SearchHit h) -> -together.get(h)));
        ordered.addAll(fused.subList(depth, fused.size()));
        return ordered;
    }

    /** The most of {@code terms} found within {@code window} consecutive words of {@code text}, as a share. */
    static double together(Set<String> terms, String text, int window) {
        List<int[]> found = new ArrayList<>(); // [word position, term id]
        List<String> ids = new ArrayList<>(terms);
        Set<String> prefixes = new HashSet<>();
        for (String term : terms) {
            prefixes.add(term.substring(0, Math.min(PREFIX, term.length())));
        }
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
                if (startsWithAny(text, start, i, prefixes)) {
                    int id = ids.indexOf(stem(text.substring(start, i).toLowerCase(java.util.Locale.ROOT)));
                    if (id >= 0) {
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
        return best < 2 ? 0 : (double) best / terms.size();
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

    private static boolean startsWithAny(String text, int start, int end, Set<String> prefixes) {
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
