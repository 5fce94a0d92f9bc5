package io.lorekeeper.retrieval;

import static io.lorekeeper.support.TestDocuments.aConversation;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;

import io.lorekeeper.document.search.SearchHit;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.IntegrationTest;

/** Zoom-out clamped to the page of the chunk: for a conversation, its session. */
@IntegrationTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ZoomOutInPageTest {

    /** Long enough that no two turns share a chunk (chunks of turns hold at most 128 tokens). */
    private static final String PADDING =
            " We talked about it for a long while that evening, going over every small detail more than"
                    + " once, the way old friends do when neither of them is in any hurry to leave the kitchen table and the tea is still warm."
                    + " Outside the rain kept falling on the garden, the dog slept by the stove, and the radio played quietly in the next room.";

    @Autowired
    Api api;

    @Autowired
    Retriever retriever;

    UUID chat;

    @BeforeAll
    void ingest() {
        chat = api.ingest(aConversation()
                .session(
                        "9:00 am on 1 May, 2023",
                        "Ann",
                        "First of May, one." + PADDING,
                        "Bo",
                        "First of May, two." + PADDING,
                        "Ann",
                        "First of May, three." + PADDING)
                .session(
                        "9:00 am on 2 May, 2023",
                        "Bo",
                        "Second of May, one." + PADDING,
                        "Ann",
                        "Second of May, two." + PADDING)
                .build());
    }

    @Test
    void theWindowStopsAtTheSessionBoundaryWhereThePlainOneCrossesIt() {
        List<SearchHit> all = retriever.chunks(chat, 0, 100);
        assertThat(all).extracting(SearchHit::pageOrdinal).containsExactly(0, 0, 0, 1, 1);
        SearchHit lastOfFirstSession = all.get(2);

        List<SearchHit> clamped = retriever.neighboursInPage(chat, lastOfFirstSession.chunkOrdinal(), 2);
        List<SearchHit> plain = retriever.neighbours(chat, lastOfFirstSession.chunkOrdinal(), 2);

        assertThat(clamped).extracting(SearchHit::chunkOrdinal).containsExactly(0, 1, 2);
        assertThat(clamped).extracting(SearchHit::pageOrdinal).containsOnly(0);
        assertThat(clamped.getLast().turnIds()).containsExactly("D1:3");
        assertThat(plain).extracting(SearchHit::chunkOrdinal).containsExactly(0, 1, 2, 3, 4);

        SearchHit firstOfSecondSession = all.get(3);
        assertThat(retriever.neighboursInPage(chat, firstOfSecondSession.chunkOrdinal(), 4))
                .extracting(SearchHit::turnIds)
                .containsExactly(List.of("D2:1"), List.of("D2:2"));
        assertThat(retriever.neighboursInPage(chat, 99, 4)).isEmpty();
    }
}
