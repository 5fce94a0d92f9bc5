package io.lorekeeper.retrieval;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import io.lorekeeper.document.search.SearchHit;
import io.lorekeeper.text.WordProximity;

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
     * @param enabled whether hybrid and deep searches over texts order their first hits by term proximity
     * @param depth   how many of the fused hits are reordered (the rest keep their place after them)
     * @param window  the span of words within which the question's terms count as together
     */
    @ConfigurationProperties("lorekeeper.search.proximity")
    record Settings(
            @DefaultValue("true") boolean enabled,
            @DefaultValue("45") int depth,
            @DefaultValue("30") int window) {}

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
        WordProximity question = WordProximity.of(query);
        if (question.size() < 2) {
            return fused;
        }
        Map<SearchHit, Double> together = new HashMap<>();
        for (SearchHit hit : head) {
            together.put(hit, question.together(hit.text(), settings.window()));
        }
        List<SearchHit> ordered = new ArrayList<>(head);
        // a stable sort: hits the rule cannot tell apart keep the fused order
        ordered.sort(Comparator.comparingDouble((SearchHit h) -> -together.get(h)));
        ordered.addAll(fused.subList(depth, fused.size()));
        return ordered;
    }
}
