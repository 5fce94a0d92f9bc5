package io.lorekeeper.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.lorekeeper.document.search.SearchHit;

class TermProximityTest {

    private static final UUID DOC = UUID.randomUUID();
    private static final TermProximity RULE = new TermProximity(new TermProximity.Settings(true, 45, 30));

    @Test
    void thePassageWhereTheQuestionsWordsMeetComesFirst() {
        List<SearchHit> fused = List.of(
                hit(
                        0,
                        "Miss Havisham sat in the dark room. Miss Havisham rose. "
                                + "The candles burned low. ".repeat(20) + "Later we went back to the house."),
                hit(1, "Miss Havisham stopped the clocks long ago."),
                hit(2, "Her house, which was called Satis House, stood near Miss Havisham's brewery."));

        List<SearchHit> ordered = RULE.reorder("What is the name of Miss Havisham's house?", fused);

        assertThat(ordered).extracting(SearchHit::chunkOrdinal).containsExactly(2, 0, 1);
    }

    @Test
    void conversationsAndADisabledRuleKeepTheFusedOrder() {
        List<SearchHit> turns = List.of(
                new SearchHit(DOC, 0, 0, 0, 10, "Caroline went home.", List.of("D1:1"), List.of("Mel"), 0.5),
                new SearchHit(
                        DOC, 1, 0, 10, 20, "Caroline's home is by the sea.", List.of("D1:2"), List.of("Mel"), 0.4));
        assertThat(RULE.reorder("Where is Caroline's home by the sea?", turns)).isEqualTo(turns);

        List<SearchHit> texts = List.of(hit(0, "Caroline went out."), hit(1, "Caroline's home is by the sea."));
        TermProximity off = new TermProximity(new TermProximity.Settings(false, 45, 30));
        assertThat(off.reorder("Where is Caroline's home by the sea?", texts)).isEqualTo(texts);
        assertThat(RULE.reorder("Where is Caroline's home by the sea?", texts))
                .extracting(SearchHit::chunkOrdinal)
                .containsExactly(1, 0);
    }

    /** What the rule costs a search: 45 passages of Great Expectations of about 256 tokens, read for one question. */
    @Test
    @org.junit.jupiter.api.condition.EnabledIfSystemProperty(named = "lorekeeper.measure.proximity", matches = "true")
    void costPerSearch() throws Exception {
        String novel = java.nio.file.Files.readString(
                io.lorekeeper.support.SharedData.require("novels/great_expectations_pg1400.txt"));
        List<String> questions = List.of(
                "What is the name of Miss Havisham's house?",
                "Who paid for Pip's education in London?",
                "Which convict did Pip help on the marshes?");
        int searches = 2_000;
        long started = 0;
        for (int s = -200; s < searches; s++) { // the first 200 warm up
            if (s == 0) {
                started = System.nanoTime();
            }
            int at = 20_000 + Math.floorMod(s * 7919, 900_000);
            List<SearchHit> fused = new java.util.ArrayList<>();
            for (int i = 0; i < 45; i++) {
                fused.add(hit(i, novel.substring(at + i * 1_100, at + (i + 1) * 1_100)));
            }
            RULE.reorder(questions.get(Math.floorMod(s, questions.size())), fused);
        }
        System.out.printf(
                "term proximity: %.3f ms per search of 45 passages%n", (System.nanoTime() - started) / 1e6 / searches);
    }

    private static SearchHit hit(int ordinal, String text) {
        return new SearchHit(
                DOC, ordinal, 0, ordinal * 100, ordinal * 100 + text.length(), text, List.of(), List.of(), 1);
    }
}
