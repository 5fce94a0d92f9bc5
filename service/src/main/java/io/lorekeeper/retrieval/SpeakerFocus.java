package io.lorekeeper.retrieval;

import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import io.lorekeeper.document.search.SearchHit;

/**
 * In a conversation, what a question says about one of its speakers ("What does Melanie do to
 * destress?") is mostly in that speaker's own turns, while the other speaker's turns that mention
 * the name ("Melanie, that's great!") share its words just as well. A fused ranking therefore
 * raises the turns of the speaker the question names. Nothing changes when the question names no
 * speaker of the found turns or names all of them ("What do Jon and Gina have in common?"), and the
 * other speaker's turns are not lowered: adversarial questions ask about one speaker what the other
 * one did, and their evidence is the other's turns. Measured in docs/benchmarks.md (2026-11-25).
 *
 * <p>The deep search also leaves the name out of the question it embeds ({@link #withoutNamedSpeakers}):
 * in the embedding it pulls toward the turns that address or mention the person ("Melanie, that's
 * great!"), not toward what the question asks about them, and who said what is this raise's job. It
 * widens what is found at some cost to the single fact a named speaker said, so the hybrid search, the
 * default, keeps the name. Measured in docs/evaluation.md (2026-11-27).
 */
final class SpeakerFocus {

    /** How much a named speaker's turns gain: chosen on LoCoMo dev3 (0.2 and 0.5 measured beside it). */
    static final double RAISE = 0.3;

    private SpeakerFocus() {}

    /** The hits re-ranked, best {@code k}; their scores are the raised ones. */
    static List<SearchHit> apply(List<SearchHit> fused, String query, int k) {
        Set<String> named = named(query, fused);
        if (named.isEmpty()) {
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

    /**
     * The query with each speaker of the hits it names, and that name's possessive, replaced by "they"
     * ("What does they do to destress?"); unchanged when it names none of them or all of them, as
     * {@link #apply} raises nothing then.
     */
    static String withoutNamedSpeakers(String query, List<SearchHit> hits) {
        String out = query;
        for (String speaker : named(query, hits)) {
            out = word(speaker, "(?:['’]s)?").matcher(out).replaceAll("they");
        }
        return out;
    }

    /** The speakers of the hits the query names; none when it names every one of them. */
    private static Set<String> named(String query, List<SearchHit> hits) {
        Set<String> speakers =
                hits.stream().flatMap(hit -> hit.speakers().stream()).collect(Collectors.toSet());
        Set<String> named = speakers.stream().filter(s -> names(query, s)).collect(Collectors.toSet());
        return named.size() == speakers.size() ? Set.of() : named;
    }

    /** Whether the query names the speaker as a word ("Melanie's" counts, "Melanies" does not). */
    static boolean names(String query, String speaker) {
        return word(speaker, "").matcher(query).find();
    }

    private static Pattern word(String speaker, String suffix) {
        return Pattern.compile("(?<![\\p{L}\\p{N}])" + Pattern.quote(speaker) + suffix + "(?![\\p{L}\\p{N}])");
    }
}
