package io.lorekeeper.document.search;

import static io.lorekeeper.support.TestDocuments.aConversation;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;

import org.assertj.core.data.Offset;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.lorekeeper.support.Api;
import io.lorekeeper.support.IntegrationTest;

/**
 * BM25 over a large corpus keeps its candidate set bounded: once the rarer query terms select
 * enough chunks, the more frequent ones stop selecting candidates but still add to the scores of
 * the chunks selected. The production cap is 4,000 chunks; here a cap of a few chunks over a small
 * document shows the same thing.
 */
@IntegrationTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KeywordCandidateCapTest {

    /** "lantern" is in six entries, "Varrow" in two, one of which has both; one entry has neither. */
    private static final List<String> ENTRIES = List.of(
            "The lantern by the door was lit at dusk.",
            "A lantern hung from the mast all night.",
            "The keeper cleaned the lantern glass each morning.",
            "Nobody on Varrow owned a brass lantern.",
            "The lantern room smelled of paraffin.",
            "Her lantern swung as she crossed the bridge.",
            "The gulls nested on the cliffs all summer.",
            "A fisherman from Varrow sold herring at the quay.");

    private static final String QUERY = "Varrow lantern";

    @Autowired
    Api api;

    @Autowired
    JdbcClient jdbc;

    UUID notes;

    @BeforeAll
    void ingest() {
        var conversation = aConversation().titled("Harbour notes " + UUID.randomUUID());
        ENTRIES.forEach(entry -> conversation.session(null, "Keeper", entry));
        notes = api.ingest(conversation.build());
    }

    private List<SearchHit> search(int candidateBudget) {
        return new KeywordSearch(jdbc, candidateBudget).search(List.of(notes), QUERY, 10);
    }

    private static List<String> entries(List<SearchHit> hits) {
        return hits.stream()
                .map(h ->
                        ENTRIES.stream().filter(h.text()::contains).findFirst().orElseThrow())
                .toList();
    }

    @Test
    void withinTheCapEveryQueryTermSelectsCandidates() {
        List<SearchHit> hits = search(4000);

        assertThat(entries(hits)).hasSize(7).doesNotContain(ENTRIES.get(6)).startsWith(ENTRIES.get(3));
        // 2 + 6 candidates fit a cap of exactly 8
        assertThat(entries(search(8))).containsExactlyElementsOf(entries(hits));
    }

    @Test
    void pastTheCapTheFrequentTermNoLongerSelectsButStillScores() {
        List<SearchHit> all = search(4000);
        SearchHit both = all.getFirst();

        List<SearchHit> capped = search(7);

        // only chunks with the rare term are candidates: the six lantern-only entries are gone
        assertThat(entries(capped)).containsExactly(ENTRIES.get(3), ENTRIES.get(7));
        // and the entry with both terms keeps the score "lantern" adds to it
        assertThat(capped.getFirst().score()).isCloseTo(both.score(), Offset.offset(1e-9));
        SearchHit rareOnly = all.stream()
                .filter(h -> h.text().contains(ENTRIES.get(7)))
                .findFirst()
                .orElseThrow();
        assertThat(capped.get(1).score())
                .isCloseTo(rareOnly.score(), Offset.offset(1e-9))
                .isLessThan(both.score());
    }

    @Test
    void theRarestTermSelectsEvenWhenItAloneExceedsTheCap() {
        assertThat(entries(search(1))).containsExactly(ENTRIES.get(3), ENTRIES.get(7));
    }
}
