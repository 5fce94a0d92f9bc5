package io.lorekeeper.retrieval;

import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * In a conversation, what a question says about one of its speakers ("What does Melanie do to
 * destress?") is mostly in that speaker's own turns, while the other speaker's turns that mention
 * the name ("Melanie, that's great!") share its words just as well. A fused ranking therefore
 * raises the turns of the speaker the question names. Nothing changes when the question names no
 * speaker of the found turns or names all of them ("What do Jon and Gina have in common?"), and the
 * other speaker's turns are not lowered: adversarial questions ask about one speaker what the other
 * one did, and their evidence is the other's turns. Measured in docs/benchmarks.md (2026-11-25).
 */
final class SpeakerFocus {

    /** How much a named speaker's turns gain: chosen on LoCoMo dev3 (0.2 and 0.5 measured beside it). */
    static final double RAISE = 0.3;

    private SpeakerFocus() {}

    /** The hits re-ranked, best {@code k}; their scores are the raised ones. */
    static List<SearchHit> apply(List<SearchHit> fused, String query, int k) {
        Set<String> speakers =
                fused.stream().flatMap(hit -> hit.speakers().stream()).collect(Collectors.toSet());
        Set<String> named = speakers.stream().filter(s -> names(query, s)).collect(Collectors.toSet());
        if (named.isEmpty() || named.size() == speakers.size()) {
            return fused.size() > k ? fused.subList(0, k) : fused;
        }
        return fused.stream()
                .map(hit -> hit.speakers().stream().anyMatch(named::contains)
                        ? hit.withScore(hit.score() * (1 + RAISE))
                        : hit)
                .sorted(Comparator.comparingDouble(SearchHit::score).reversed())
                .limit(k)
                .toList();
    }

    /** Whether the query names the speaker as a word ("Melanie's" counts, "Melanies" does not). */
    static boolean names(String query, String speaker) {
        return Pattern.compile("(?<![\\p{L}\\p{N}])" + Pattern.quote(speaker) + "(?![\\p{L}\\p{N}])")
                .matcher(query)
                .find();
    }
}
