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
                String word = text.substring(start, i).toLowerCase(java.util.Locale.ROOT);
                if (startsWithAny(word, prefixes)) {
                    for (String stem : Terms.of(word)) {
                        int id = ids.indexOf(stem);
                        if (id >= 0) {
                            found.add(new int[] {position, id});
                        }
                    }
                }
                position++;
            }
        }
        int best = 0;
        for (int from = 0; from < found.size(); from++) {
            Set<Integer> within = new HashSet<>();
            for (int to = from; to < found.size() && found.get(to)[0] - found.get(from)[0] <= window; to++) {
                within.add(found.get(to)[1]);
            }
            best = Math.max(best, within.size());
        }
        return best < 2 ? 0 : (double) best / terms.size();
    }

    private static boolean startsWithAny(String word, Set<String> prefixes) {
        for (String prefix : prefixes) {
            if (word.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isApostrophe(char c) {
        return c == '\'' || c == '\u2019';
    }
}
