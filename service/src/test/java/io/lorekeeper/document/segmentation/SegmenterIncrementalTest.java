package io.lorekeeper.document.segmentation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;

import io.lorekeeper.document.DocumentRequests.Session;
import io.lorekeeper.document.DocumentRequests.Turn;
import io.lorekeeper.document.intake.CanonicalText;
import io.lorekeeper.document.intake.ConversationRenderer;
import io.lorekeeper.document.intake.DocumentLimits;

/**
 * Segmenting a conversation that grew by appended sessions: only the new sessions are cut, and the
 * result is exactly the tail a full segmentation of the grown conversation would produce, so the
 * stored chunks (with their ids and embeddings) and pages (with their memos) stay valid.
 */
class SegmenterIncrementalTest {

    private static final DocumentLimits LIMITS =
            new DocumentLimits(DataSize.ofMegabytes(20), 500, 5000, 5000, DataSize.ofKilobytes(16));
    private static final Segmenter SMALL = new Segmenter(20, 30, 24, 60);

    private static Session session(String dateTime, int turns, String topic) {
        List<Turn> list = new ArrayList<>();
        for (int i = 0; i < turns; i++) {
            list.add(new Turn(
                    null,
                    i % 2 == 0 ? "Caroline" : "Melanie",
                    "Turn " + i + " about " + topic
                            + (i % 3 == 0 ? ", which went on for quite a while with many more words in it" : ".")));
        }
        return new Session(null, dateTime, list);
    }

    /** Where the stored segmentation ends, as SegmentationStore reports it. */
    private static Segmenter.Continuation endOf(Segmentation stored) {
        if (stored.chunks().isEmpty()) {
            return Segmenter.Continuation.START;
        }
        return new Segmenter.Continuation(
                stored.chunks().getLast().span().end(),
                stored.chunks().getLast().ordinal() + 1,
                stored.pages().getLast().ordinal() + 1);
    }

    private static void assertIncrementalEqualsFull(Segmenter segmenter, List<Session> first, List<Session> appended) {
        CanonicalText before = ConversationRenderer.render(first, LIMITS);
        CanonicalText after = ConversationRenderer.append(before, appended, LIMITS);
        Segmentation stored = segmenter.segment(before);

        Segmentation added = segmenter.segmentConversation(after, endOf(stored));
        Segmentation full = segmenter.segment(after);

        List<Segmentation.Chunk> combinedChunks = new ArrayList<>(stored.chunks());
        combinedChunks.addAll(added.chunks());
        List<Segmentation.Page> combinedPages = new ArrayList<>(stored.pages());
        combinedPages.addAll(added.pages());
        assertThat(combinedChunks)
                .as("stored chunks plus new chunks = full segmentation")
                .isEqualTo(full.chunks());
        assertThat(combinedPages)
                .as("stored pages plus new pages = full segmentation")
                .isEqualTo(full.pages());
        assertThat(added.chunks())
                .allSatisfy(c ->
                        assertThat(c.span().start()).isGreaterThan(before.text().length()));
    }

    @Test
    void appendedSessionsAreSegmentedAloneExactlyAsInAFullSegmentation() {
        assertIncrementalEqualsFull(
                SMALL,
                List.of(session("1:56 pm on 8 May, 2023", 7, "the support group"), session(null, 3, "a dog")),
                List.of(
                        session("7:55 pm on 9 June, 2023", 9, "a painting"),
                        session("noon on 1 July, 2023", 1, "a trip")));
    }

    @Test
    void standardSettingsWithALongTurnInTheNewSession() {
        List<Turn> turns = List.of(
                new Turn(
                        null,
                        "Caroline",
                        "Well. " + "I told you about the lake and the cabin and the long drive. ".repeat(60)),
                new Turn(null, "Melanie", "Wow."));
        assertIncrementalEqualsFull(
                Segmenter.standard(),
                List.of(session("1:56 pm on 8 May, 2023", 4, "work")),
                List.of(new Session(null, "9 June, 2023", turns)));
    }

    @Test
    void aSessionWithoutTurnsBeforeTheNewOnesKeepsOrdinalsContiguous() {
        assertIncrementalEqualsFull(
                SMALL,
                List.of(session("morning", 2, "breakfast"), new Session("quiet", "noon", List.of())),
                List.of(new Session("also-quiet", null, List.of()), session("evening", 5, "dinner")));
    }

    @Test
    void numbersNewChunksAndPagesAfterTheStoredOnes() {
        CanonicalText before = ConversationRenderer.render(
                List.of(session("May", 6, "gardening"), session("June", 4, "bees")), LIMITS);
        CanonicalText after = ConversationRenderer.append(before, List.of(session("July", 2, "honey")), LIMITS);
        Segmentation stored = SMALL.segment(before);

        Segmentation added = SMALL.segmentConversation(after, endOf(stored));

        assertThat(added.pages()).hasSize(1);
        Segmentation.Page page = added.pages().getFirst();
        assertThat(page.ordinal()).isEqualTo(2);
        assertThat(page.sessionId()).isEqualTo("3");
        assertThat(page.firstChunk()).isEqualTo(stored.chunks().size());
        assertThat(page.lastChunk())
                .isEqualTo(stored.chunks().size() + added.chunks().size() - 1);
        assertThat(page.span()).isEqualTo(after.sessions().get(2).span());
        assertThat(added.chunks().getFirst().text()).startsWith("[Session 3, July]\nCaroline: Turn 0 about honey");
        assertThat(added.chunks()).extracting(Segmentation.Chunk::pageOrdinal).containsOnly(2);
        assertThat(added.chunks()).flatExtracting(Segmentation.Chunk::turnIds).containsExactly("D3:1", "D3:2");
    }

    @Test
    void nothingNewGivesNothing() {
        CanonicalText canonical = ConversationRenderer.render(List.of(session("May", 3, "kites")), LIMITS);
        Segmentation stored = SMALL.segment(canonical);

        Segmentation again = SMALL.segmentConversation(canonical, endOf(stored));

        assertThat(again.chunks()).isEmpty();
        assertThat(again.pages()).isEmpty();
    }

    @Test
    void fromTheStartIsTheFullSegmentation() {
        CanonicalText canonical =
                ConversationRenderer.render(List.of(session("May", 5, "kites"), session("June", 8, "boats")), LIMITS);

        assertThat(SMALL.segmentConversation(canonical, Segmenter.Continuation.START))
                .isEqualTo(SMALL.segment(canonical));
    }
}
