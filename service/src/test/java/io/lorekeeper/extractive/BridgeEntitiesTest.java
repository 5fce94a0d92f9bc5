package io.lorekeeper.extractive;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.lorekeeper.document.search.SearchHit;

class BridgeEntitiesTest {

    private static final String QUESTION = "Who paid for the education of the boy?";
    private static final UUID DOC = new UUID(0, 7);

    private static List<SearchHit> hits(String... texts) {
        List<SearchHit> hits = new ArrayList<>();
        for (int i = 0; i < texts.length; i++) {
            hits.add(new SearchHit(
                    DOC, i, 0, i * 1000, i * 1000 + texts[i].length(), texts[i], List.of(), List.of(), 1.0 - i * 0.1));
        }
        return hits;
    }

    private static List<String> bridges(String question, String... texts) {
        return BridgeEntities.from(hits(texts), question, 10);
    }

    @Test
    void nameInsideASentenceIsABridge() {
        assertThat(bridges(QUESTION, "The money came through Jaggers every quarter."))
                .containsExactly("Jaggers");
    }

    @Test
    void sentenceInitialSingleCapitalisedWordIsSkipped() {
        assertThat(bridges(QUESTION, "Yesterday it rained. Magwitch sent it. “Nobody knew,” he said."))
                .isEmpty();
    }

    @Test
    void sentenceInitialMultiWordNameIsKept() {
        assertThat(bridges(QUESTION, "Joe Gargery cried at the news.")).containsExactly("Joe Gargery");
    }

    @Test
    void namesAlreadyInTheQuestionAreSkipped() {
        assertThat(bridges(
                        "Who sent money to Pip through Jaggers?",
                        "The money reached Pip through Jaggers from Magwitch."))
                .containsExactly("Magwitch");
    }

    @Test
    void leadingAndIsStripped() {
        assertThat(bridges(QUESTION, "He waved. And Estella Havisham left the room."))
                .containsExactly("Estella Havisham");
    }

    @Test
    void leadingCommonWordsAndHonorificsAreStripped() {
        assertThat(bridges(QUESTION, "I went to see Miss Havisham today.")).containsExactly("Havisham");
    }

    @Test
    void commonCapitalisedWordsAndShortNamesAreSkipped() {
        assertThat(bridges(QUESTION, "it was, I think, Session time. then Al came. so The end."))
                .isEmpty();
    }

    @Test
    void ofJoinsTheWordsOfATitle() {
        assertThat(bridges(QUESTION, "He served the Duke of York for years.")).containsExactly("Duke of York");
    }

    @Test
    void mentionsAcrossHitsAreCountedAndTheMostFrequentComesFirst() {
        List<String> bridges = bridges(
                QUESTION, "He left with Biddy and then with Joe Gargery.", "Later he spoke to Joe Gargery again.");

        assertThat(bridges).containsExactly("Joe Gargery", "Biddy");
    }

    @Test
    void equallyFrequentNamesAreOrderedLongestFirst() {
        assertThat(bridges(QUESTION, "He saw Biddy, then Herbert Pocket, then Wemmick."))
                .containsExactly("Herbert Pocket", "Wemmick", "Biddy");
    }

    @Test
    void atMostMaxNamesAreReturned() {
        List<SearchHit> hits = hits("He saw Biddy, then Herbert Pocket, then Wemmick.");

        assertThat(BridgeEntities.from(hits, QUESTION, 2)).containsExactly("Herbert Pocket", "Wemmick");
        assertThat(BridgeEntities.from(hits, QUESTION, 0)).isEmpty();
    }

    @Test
    void noHitsGiveNoBridges() {
        assertThat(BridgeEntities.from(List.of(), QUESTION, 5)).isEmpty();
    }

    @Test
    void nameAfterASentenceInitialCommonWordIsKept() {
        assertThat(bridges(QUESTION, "He waited. But Herbert never came.")).containsExactly("Herbert");
    }
}
