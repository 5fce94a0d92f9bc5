package io.lorekeeper.document.segmentation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;

import io.lorekeeper.document.DocumentRequests.Session;
import io.lorekeeper.document.DocumentRequests.Turn;
import io.lorekeeper.document.intake.CanonicalText;
import io.lorekeeper.document.intake.CanonicalText.RenderedSession;
import io.lorekeeper.document.intake.CanonicalText.RenderedTurn;
import io.lorekeeper.document.intake.ConversationRenderer;
import io.lorekeeper.document.intake.DocumentLimits;
import io.lorekeeper.text.SentenceSplitter;
import io.lorekeeper.text.Span;
import io.lorekeeper.text.TokenCounter;

class SegmenterTest {

    private static final int CHUNK = 20;
    private static final int MAX_CHUNK = 30;
    private static final int TURN_CHUNK = 24;
    private static final int PAGE = 60;
    private static final Segmenter SMALL = new Segmenter(CHUNK, MAX_CHUNK, TURN_CHUNK, PAGE);

    private static final int STANDARD_MAX_CHUNK = 320;
    private static final int STANDARD_PAGE = 2048;

    private static final DocumentLimits LIMITS =
            new DocumentLimits(DataSize.ofMegabytes(20), 500, 5000, 5000, DataSize.ofKilobytes(16));

    // ---------------------------------------------------------------- builders

    private static final String[] SUBJECTS = {"Pip", "Joe", "Estella", "Miss Havisham", "The convict", "Mr. Jaggers"};
    private static final String[] PREDICATES = {
        "walked across the marshes",
        "said nothing at all",
        "looked at the old church and the graves beside it",
        "laughed",
        "went home before dark, carrying a file and some bread"
    };

    /** Deterministic prose: sentences of varied length, hard-wrapped lines and blank-line paragraphs. */
    private static String prose(int sentences) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < sentences; i++) {
            if (i > 0) {
                text.append(i % 8 == 0 ? "\n\n" : i % 3 == 0 ? "\n" : " ");
            }
            text.append(SUBJECTS[i % SUBJECTS.length]).append(' ').append(PREDICATES[i % PREDICATES.length]);
            if (i % 7 == 0) {
                text.append(" and then, after a long pause, came back again");
            }
            text.append(i % 11 == 0 ? "!" : ".");
        }
        return text.toString();
    }

    /** One sentence of {@code words} words with no sentence terminator until the very end. */
    private static String runOnSentence(int words) {
        String[] vocabulary = {"the", "old", "forge", "glowed", "while", "Joe", "hammered", "slowly", "and", "sang"};
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < words; i++) {
            text.append(i == 0 ? "" : i % 13 == 0 ? "\n" : " ").append(vocabulary[i % vocabulary.length]);
        }
        return text.append('.').toString();
    }

    private static String randomLetters(int length, long seed) {
        Random random = new Random(seed);
        StringBuilder word = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            word.append((char) ('a' + random.nextInt(26)));
        }
        return word.toString();
    }

    private static Segmentation segmentText(Segmenter segmenter, String text) {
        return segmenter.segment(CanonicalText.plain(text));
    }

    private static Turn turn(String speaker, String text) {
        return new Turn(null, speaker, text);
    }

    private static Session session(String dateTime, Turn... turns) {
        return new Session(null, dateTime, List.of(turns));
    }

    private static CanonicalText conversation(Session... sessions) {
        return ConversationRenderer.render(List.of(sessions), LIMITS);
    }

    private static String longTurnText(int sentences) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < sentences; i++) {
            text.append(i == 0 ? "" : " ")
                    .append("I told you about the painting class number ")
                    .append(i)
                    .append(" where we painted the lake at sunrise together.");
        }
        return text.toString();
    }

    // ---------------------------------------------------------------- invariant checks

    private static int tokens(String text) {
        return TokenCounter.count(text);
    }

    /** Ordinals, exact text, recorded token counts, order and non-overlap. */
    private static void assertChunksAreOrderedSpansOf(String text, Segmentation segmentation) {
        int previousEnd = 0;
        List<Segmentation.Chunk> chunks = segmentation.chunks();
        for (int i = 0; i < chunks.size(); i++) {
            Segmentation.Chunk chunk = chunks.get(i);
            assertThat(chunk.ordinal()).isEqualTo(i);
            assertThat(chunk.text())
                    .as("chunk %d text", i)
                    .isEqualTo(text.substring(chunk.span().start(), chunk.span().end()));
            assertThat(chunk.text()).as("chunk %d is not blank", i).isNotBlank();
            assertThat(chunk.tokens()).as("chunk %d token count", i).isEqualTo(tokens(chunk.text()));
            assertThat(chunk.span().start())
                    .as("chunk %d starts after chunk %d ends", i, i - 1)
                    .isGreaterThanOrEqualTo(previousEnd);
            previousEnd = chunk.span().end();
        }
    }

    private static void assertChunksFit(Segmentation segmentation, int maxChunkTokens) {
        for (Segmentation.Chunk chunk : segmentation.chunks()) {
            assertThat(tokens(chunk.text()))
                    .as("tokens of chunk %d: %s", chunk.ordinal(), chunk.text())
                    .isLessThanOrEqualTo(maxChunkTokens);
        }
    }

    /** Pages partition the chunks into contiguous, greedily filled ranges; chunks know their page. */
    private static void assertTextPages(Segmentation segmentation, int pageTokens) {
        List<Segmentation.Chunk> chunks = segmentation.chunks();
        List<Segmentation.Page> pages = segmentation.pages();
        int nextChunk = 0;
        for (int p = 0; p < pages.size(); p++) {
            Segmentation.Page page = pages.get(p);
            assertThat(page.ordinal()).isEqualTo(p);
            assertThat(page.firstChunk())
                    .as("page %d starts where page %d ended", p, p - 1)
                    .isEqualTo(nextChunk);
            assertThat(page.lastChunk()).isGreaterThanOrEqualTo(page.firstChunk());
            assertThat(page.sessionId()).isNull();
            List<Segmentation.Chunk> own = chunks.subList(page.firstChunk(), page.lastChunk() + 1);
            int sum = own.stream().mapToInt(Segmentation.Chunk::tokens).sum();
            assertThat(page.tokens()).isEqualTo(sum);
            if (own.size() > 1) {
                assertThat(sum).as("tokens of page %d", p).isLessThanOrEqualTo(pageTokens);
            }
            if (p + 1 < pages.size()) {
                assertThat(sum + chunks.get(page.lastChunk() + 1).tokens())
                        .as("page %d was closed only because the next chunk did not fit", p)
                        .isGreaterThan(pageTokens);
            }
            assertThat(page.span())
                    .isEqualTo(new Span(
                            own.getFirst().span().start(), own.getLast().span().end()));
            own.forEach(c -> assertThat(c.pageOrdinal())
                    .as("page of chunk %d", c.ordinal())
                    .isEqualTo(page.ordinal()));
            nextChunk = page.lastChunk() + 1;
        }
        assertThat(nextChunk).as("pages cover every chunk").isEqualTo(chunks.size());
    }

    private static String withoutWhitespace(String s) {
        return s.replaceAll("\\s+", "");
    }

    private static String concatenated(Segmentation segmentation) {
        StringBuilder all = new StringBuilder();
        segmentation.chunks().forEach(c -> all.append(c.text()));
        return all.toString();
    }

    // ---------------------------------------------------------------- texts

    @Nested
    class Texts {

        @Test
        void chunksAreExactOrderedNonOverlappingSpansWithinTheLimit() {
            String text = prose(120);

            Segmentation segmentation = segmentText(SMALL, text);

            assertThat(segmentation.chunks()).hasSizeGreaterThan(10);
            assertChunksAreOrderedSpansOf(text, segmentation);
            assertChunksFit(segmentation, MAX_CHUNK);
            assertThat(withoutWhitespace(concatenated(segmentation))).isEqualTo(withoutWhitespace(text));
        }

        @Test
        void chunkBoundariesFallOnSentenceBoundaries() {
            String text = prose(120);
            List<Span> sentences = SentenceSplitter.split(text);
            assertThat(sentences).allSatisfy(s -> assertThat(tokens(s.of(text))).isLessThanOrEqualTo(MAX_CHUNK));
            Set<Integer> starts = new HashSet<>();
            Set<Integer> ends = new HashSet<>();
            sentences.forEach(s -> {
                starts.add(s.start());
                ends.add(s.end());
            });

            Segmentation segmentation = segmentText(SMALL, text);

            assertThat(segmentation.chunks()).allSatisfy(c -> {
                assertThat(starts)
                        .as("chunk %d starts a sentence", c.ordinal())
                        .contains(c.span().start());
                assertThat(ends)
                        .as("chunk %d ends a sentence", c.ordinal())
                        .contains(c.span().end());
            });
        }

        private static int packedTokens(String text, List<Span> sentences) {
            int sum = 0;
            for (int j = 0; j < sentences.size(); j++) {
                sum += tokens(sentences.get(j).of(text));
                if (j > 0) {
                    sum += tokens(text.substring(
                            sentences.get(j - 1).end(), sentences.get(j).start()));
                }
            }
            return sum;
        }

        @Test
        void sentencesArePackedGreedilyUpToTheChunkBudget() {
            String text = prose(120);
            List<Span> sentences = SentenceSplitter.split(text);

            Segmentation segmentation = segmentText(SMALL, text);

            List<List<Span>> perChunk = new ArrayList<>();
            for (Segmentation.Chunk chunk : segmentation.chunks()) {
                perChunk.add(sentences.stream().filter(chunk.span()::contains).toList());
            }
            assertThat(perChunk.stream().mapToInt(List::size).sum())
                    .as("every sentence in exactly one chunk")
                    .isEqualTo(sentences.size());
            assertThat(perChunk).anySatisfy(s -> assertThat(s).hasSizeGreaterThan(1));
            // The packer's measure: sentence tokens plus the tokens of the whitespace between them.
            for (int i = 0; i < perChunk.size(); i++) {
                List<Span> own = perChunk.get(i);
                int sum = packedTokens(text, own);
                if (own.size() > 1) {
                    assertThat(sum).as("packed tokens of chunk %d", i).isLessThanOrEqualTo(CHUNK);
                }
                if (i + 1 < perChunk.size()) {
                    List<Span> withNext = new ArrayList<>(own);
                    withNext.add(perChunk.get(i + 1).getFirst());
                    assertThat(packedTokens(text, withNext))
                            .as("chunk %d was closed only because the next sentence did not fit", i)
                            .isGreaterThan(CHUNK);
                }
            }
        }

        @Test
        void sentenceLongerThanTheMaximumIsCutAtWordBoundaries() {
            String sentence = runOnSentence(150);
            String text = "Short opening. " + sentence + " Short closing.";
            assertThat(tokens(sentence)).isGreaterThan(4 * MAX_CHUNK);

            Segmentation segmentation = segmentText(SMALL, text);

            assertChunksAreOrderedSpansOf(text, segmentation);
            assertChunksFit(segmentation, MAX_CHUNK);
            assertThat(segmentation.chunks()).hasSizeGreaterThanOrEqualTo(5).allSatisfy(c -> {
                int start = c.span().start();
                int end = c.span().end();
                assertThat(start == 0 || Character.isWhitespace(text.charAt(start - 1)))
                        .as("chunk %d starts at a word: %s", c.ordinal(), c.text())
                        .isTrue();
                assertThat(end == text.length() || Character.isWhitespace(text.charAt(end)))
                        .as("chunk %d ends at a word: %s", c.ordinal(), c.text())
                        .isTrue();
            });
            List<String> words = segmentation.chunks().stream()
                    .flatMap(c -> Arrays.stream(c.text().split("\\s+")))
                    .toList();
            assertThat(words).containsExactly(text.split("\\s+"));
        }

        @Test
        void singleHugeWordIsCutIntoBoundedContiguousChunks() {
            String word = randomLetters(5000, 42);

            Segmentation segmentation = segmentText(SMALL, word);

            assertChunksAreOrderedSpansOf(word, segmentation);
            assertChunksFit(segmentation, MAX_CHUNK);
            assertThat(segmentation.chunks()).hasSizeGreaterThan(20);
            assertThat(concatenated(segmentation)).isEqualTo(word);
        }

        @Test
        void hugeWordInsideProseIsCutWithStandardSettings() {
            String word = randomLetters(5000, 7);
            String text = "It began normally. Then the file said " + word + " and nothing else. It ended.";

            Segmentation segmentation = segmentText(Segmenter.standard(), text);

            assertChunksAreOrderedSpansOf(text, segmentation);
            assertChunksFit(segmentation, STANDARD_MAX_CHUNK);
            assertThat(segmentation.chunks()).hasSizeGreaterThan(3);
            assertThat(withoutWhitespace(concatenated(segmentation))).isEqualTo(withoutWhitespace(text));
        }

        @Test
        void pagesAreContiguousChunkRangesWithinThePageBudget() {
            Segmentation segmentation = segmentText(SMALL, prose(150));

            assertThat(segmentation.pages()).hasSizeGreaterThan(5);
            assertTextPages(segmentation, PAGE);
        }

        @Test
        void chunkLargerThanAPageGetsAPageOfItsOwn() {
            Segmenter tinyPages = new Segmenter(CHUNK, MAX_CHUNK, TURN_CHUNK, 5);

            Segmentation segmentation = segmentText(tinyPages, prose(30));

            assertTextPages(segmentation, 5);
            assertThat(segmentation.pages()).hasSameSizeAs(segmentation.chunks());
            assertThat(segmentation.chunks())
                    .allSatisfy(c -> assertThat(c.pageOrdinal()).isEqualTo(c.ordinal()));
        }

        @Test
        void standardSettingsOnLongProse() {
            String text = prose(3000);

            Segmentation segmentation = segmentText(Segmenter.standard(), text);

            assertChunksAreOrderedSpansOf(text, segmentation);
            assertChunksFit(segmentation, STANDARD_MAX_CHUNK);
            assertTextPages(segmentation, STANDARD_PAGE);
            assertThat(segmentation.pages()).hasSizeGreaterThan(1);
            assertThat(segmentation.chunks())
                    .allSatisfy(c -> assertThat(c.turnIds()).isEmpty());
        }

        @Test
        void shortTextIsOneChunkOnOnePage() {
            String text = "  Pip ran. Joe followed.\n";

            Segmentation segmentation = segmentText(SMALL, text);

            assertThat(segmentation.chunks()).singleElement().satisfies(c -> {
                assertThat(c.span()).isEqualTo(new Span(2, 24));
                assertThat(c.text()).isEqualTo("Pip ran. Joe followed.");
                assertThat(c.pageOrdinal()).isZero();
            });
            assertThat(segmentation.pages())
                    .singleElement()
                    .isEqualTo(new Segmentation.Page(0, 0, 0, new Span(2, 24), tokens("Pip ran. Joe followed."), null));
        }

        @Test
        void blankTextHasNoChunksAndNoPages() {
            assertThat(segmentText(SMALL, "").chunks()).isEmpty();
            assertThat(segmentText(SMALL, " \n\n ").pages()).isEmpty();
        }

        @Test
        void manyTinyParagraphsStillFitTheMaximum() {
            String text = "Item\n\n".repeat(300);

            Segmentation segmentation = segmentText(Segmenter.standard(), text);

            assertChunksFit(segmentation, STANDARD_MAX_CHUNK);
        }

        @Test
        void hugeWordOfUnevenDensityStillFitsTheMaximum() {
            String word = "x7Q/".repeat(1500) + "=".repeat(6000);

            Segmentation segmentation = segmentText(Segmenter.standard(), word);

            assertChunksFit(segmentation, STANDARD_MAX_CHUNK);
        }
    }

    // ---------------------------------------------------------------- conversations

    private static List<String> turnsOverlapping(CanonicalText canonical, Span span) {
        return canonical.turns().stream()
                .filter(t -> t.span().overlaps(span))
                .map(RenderedTurn::id)
                .toList();
    }

    private static void assertConversation(CanonicalText canonical, Segmentation segmentation) {
        String text = canonical.text();
        assertChunksAreOrderedSpansOf(text, segmentation);
        List<RenderedSession> withTurns = canonical.sessions().stream()
                .filter(s -> canonical.turns().stream().anyMatch(t -> t.sessionIndex() == s.index()))
                .toList();
        assertThat(segmentation.pages()).as("one page per session").hasSameSizeAs(withTurns);
        int nextChunk = 0;
        for (int p = 0; p < withTurns.size(); p++) {
            RenderedSession session = withTurns.get(p);
            Segmentation.Page page = segmentation.pages().get(p);
            assertThat(page.ordinal()).isEqualTo(p);
            assertThat(page.sessionId()).isEqualTo(session.id());
            assertThat(page.firstChunk()).isEqualTo(nextChunk);
            assertThat(page.span()).as("page %d spans its whole session", p).isEqualTo(session.span());
            List<Segmentation.Chunk> own = segmentation.chunks().subList(page.firstChunk(), page.lastChunk() + 1);
            assertThat(page.tokens())
                    .isEqualTo(own.stream().mapToInt(Segmentation.Chunk::tokens).sum());
            String header = text.substring(
                    session.span().start(), text.indexOf('\n', session.span().start()));
            assertThat(header).startsWith("[Session " + (session.index() + 1));
            assertThat(own.getFirst().text())
                    .as("first chunk of session %s opens with its header", session.id())
                    .startsWith(header + "\n");
            for (Segmentation.Chunk chunk : own) {
                assertThat(session.span().contains(chunk.span()))
                        .as("chunk %d stays inside session %s", chunk.ordinal(), session.id())
                        .isTrue();
                assertThat(chunk.pageOrdinal()).isEqualTo(p);
                assertThat(chunk.turnIds())
                        .as("turn ids of chunk %d", chunk.ordinal())
                        .isEqualTo(turnsOverlapping(canonical, chunk.span()));
                assertThat(chunk.speakers())
                        .as("speakers of chunk %d", chunk.ordinal())
                        .isEqualTo(canonical.turns().stream()
                                .filter(t -> chunk.turnIds().contains(t.id()))
                                .map(RenderedTurn::speaker)
                                .distinct()
                                .sorted()
                                .toList());
            }
            assertThat(own.getFirst().lead())
                    .as("a session's first chunk has no lead")
                    .isNull();
            for (int i = 1; i < own.size(); i++) {
                assertThat(own.get(i).lead())
                        .as(
                                "lead of chunk %d is the chunk before it",
                                own.get(i).ordinal())
                        .isEqualTo(own.get(i - 1).text());
            }
            for (int i = 1; i < own.size(); i++) {
                String gap = text.substring(
                        own.get(i - 1).span().end(), own.get(i).span().start());
                assertThat(gap).as("nothing but whitespace between chunks").isBlank();
            }
            nextChunk = page.lastChunk() + 1;
        }
        assertThat(nextChunk).isEqualTo(segmentation.chunks().size());
    }

    @Nested
    class Conversations {

        @Test
        void shortSessionsAreOneChunkAndOnePageEach() {
            CanonicalText canonical = conversation(
                    session(
                            "1:56 pm on 8 May, 2023",
                            turn("Caroline", "Hey Mel!"),
                            turn("Melanie", "Hi Caroline."),
                            turn("Caroline", "I went to the support group yesterday.")),
                    session("7:55 pm on 9 June, 2023", turn("Melanie", "How was it?")));

            Segmentation segmentation = Segmenter.standard().segment(canonical);

            assertConversation(canonical, segmentation);
            assertThat(segmentation.chunks())
                    .extracting(Segmentation.Chunk::text)
                    .containsExactly(
                            "[Session 1, 1:56 pm on 8 May, 2023]\nCaroline: Hey Mel!\nMelanie: Hi Caroline.\n"
                                    + "Caroline: I went to the support group yesterday.",
                            "[Session 2, 7:55 pm on 9 June, 2023]\nMelanie: How was it?");
            assertThat(segmentation.chunks())
                    .extracting(Segmentation.Chunk::turnIds)
                    .containsExactly(List.of("D1:1", "D1:2", "D1:3"), List.of("D2:1"));
            assertThat(segmentation.pages())
                    .extracting(Segmentation.Page::sessionId)
                    .containsExactly("1", "2");
        }

        @Test
        void turnsOfOrdinaryLengthAreUnitsOfTheirOwnLedByTheTurnBefore() {
            CanonicalText canonical = conversation(session(
                    "1:56 pm on 8 May, 2023",
                    turn("Caroline", "What did you end up doing at the lake last weekend with the whole family?"),
                    turn("Melanie", "We rented a little boat and the kids spent the afternoon fishing off the pier."),
                    turn("Caroline", "That sounds lovely, I should take my niece there some time this summer.")));

            Segmentation segmentation = Segmenter.standard().segment(canonical);

            assertConversation(canonical, segmentation);
            assertThat(segmentation.chunks())
                    .extracting(Segmentation.Chunk::turnIds)
                    .containsExactly(List.of("D1:1"), List.of("D1:2"), List.of("D1:3"));
            assertThat(segmentation.chunks())
                    .extracting(Segmentation.Chunk::speakers)
                    .containsExactly(List.of("Caroline"), List.of("Melanie"), List.of("Caroline"));
            assertThat(segmentation.chunks().get(1).lead())
                    .isEqualTo("[Session 1, 1:56 pm on 8 May, 2023]\nCaroline: What did you end up doing at the"
                            + " lake last weekend with the whole family?");
            assertThat(segmentation.chunks().get(1).text())
                    .as("the lead is indexed with the chunk, not part of it")
                    .startsWith("Melanie: ");
        }

        @Test
        void textChunksHaveNoLeadAndNoSpeakers() {
            Segmentation segmentation = segmentText(Segmenter.standard(), prose(200));

            assertThat(segmentation.chunks()).hasSizeGreaterThan(1).allSatisfy(chunk -> {
                assertThat(chunk.lead()).isNull();
                assertThat(chunk.speakers()).isEmpty();
            });
        }

        @Test
        void sessionHeaderWithoutDateIsInsideTheFirstChunk() {
            CanonicalText canonical =
                    conversation(session(null, turn("A", "Hello.")), session(null, turn("B", "Bye.")));

            Segmentation segmentation = Segmenter.standard().segment(canonical);

            assertThat(segmentation.chunks())
                    .extracting(Segmentation.Chunk::text)
                    .containsExactly("[Session 1]\nA: Hello.", "[Session 2]\nB: Bye.");
        }

        @Test
        void shortTurnsAreGroupedGreedilyWithoutCrossingSessions() {
            List<Turn> first = new ArrayList<>();
            List<Turn> second = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                first.add(turn(i % 2 == 0 ? "Caroline" : "Melanie", "Line " + i + " of the first talk."));
                second.add(turn(i % 2 == 0 ? "Melanie" : "Caroline", "Reply " + i + " here."));
            }
            CanonicalText canonical = ConversationRenderer.render(
                    List.of(new Session(null, null, first), new Session(null, null, second)), LIMITS);

            Segmentation segmentation = SMALL.segment(canonical);

            assertConversation(canonical, segmentation);
            assertChunksFit(segmentation, MAX_CHUNK);
            List<Segmentation.Chunk> chunks = segmentation.chunks();
            assertThat(chunks).anySatisfy(c -> assertThat(c.turnIds()).hasSizeGreaterThan(1));
            for (int i = 0; i < chunks.size(); i++) {
                int turnTokens = turnTokens(canonical, chunks.get(i).turnIds());
                if (chunks.get(i).turnIds().size() > 1) {
                    assertThat(turnTokens).as("turn tokens of chunk %d", i).isLessThanOrEqualTo(TURN_CHUNK);
                }
                boolean nextInSameSession = i + 1 < chunks.size()
                        && chunks.get(i + 1).pageOrdinal() == chunks.get(i).pageOrdinal();
                if (nextInSameSession) {
                    assertThat(turnTokens
                                    + turnTokens(
                                            canonical,
                                            List.of(chunks.get(i + 1).turnIds().getFirst())))
                            .as("chunk %d was closed only because the next turn did not fit", i)
                            .isGreaterThan(TURN_CHUNK);
                }
            }
        }

        private static int turnTokens(CanonicalText canonical, List<String> ids) {
            return canonical.turns().stream()
                    .filter(t -> ids.contains(t.id()))
                    .mapToInt(t -> tokens(t.span().of(canonical.text())))
                    .sum();
        }

        @Test
        void veryLongTurnIsSplitIntoSeveralChunksAllCarryingItsId() {
            CanonicalText canonical = conversation(
                    session(
                            "1:56 pm on 8 May, 2023",
                            turn("Melanie", "Tell me about it."),
                            new Turn("long-one", "Caroline", longTurnText(80)),
                            turn("Melanie", "Wow.")),
                    session(null, turn("Caroline", "Anyway.")));

            Segmentation segmentation = Segmenter.standard().segment(canonical);

            assertConversation(canonical, segmentation);
            assertChunksFit(segmentation, STANDARD_MAX_CHUNK);
            List<Segmentation.Chunk> longChunks = segmentation.chunks().stream()
                    .filter(c -> c.turnIds().contains("long-one"))
                    .toList();
            assertThat(longChunks)
                    .hasSizeGreaterThanOrEqualTo(4)
                    .allSatisfy(c -> assertThat(c.turnIds()).containsExactly("long-one"));
            RenderedTurn longTurn = canonical.turns().get(1);
            assertThat(longChunks.getFirst().span().start())
                    .isEqualTo(longTurn.span().start());
            assertThat(longChunks.getFirst().text()).startsWith("Caroline: I told you");
            assertThat(longChunks.getLast().span().end())
                    .isEqualTo(longTurn.span().end());
            assertThat(segmentation.chunks())
                    .extracting(Segmentation.Chunk::turnIds)
                    .startsWith(List.of("D1:1"))
                    .endsWith(List.of("D1:3"), List.of("D2:1"));
        }

        @Test
        void longFirstTurnKeepsTheHeaderInItsFirstChunk() {
            CanonicalText canonical = conversation(
                    session("1:56 pm on 8 May, 2023", turn("Caroline", longTurnText(40)), turn("Melanie", "Nice.")));

            Segmentation segmentation = Segmenter.standard().segment(canonical);

            assertConversation(canonical, segmentation);
            assertThat(segmentation.chunks()).hasSizeGreaterThanOrEqualTo(3);
            assertThat(segmentation.chunks().getFirst().text())
                    .startsWith("[Session 1, 1:56 pm on 8 May, 2023]\nCaroline: I told you");
            assertThat(segmentation.chunks().getFirst().turnIds()).containsExactly("D1:1");
            assertThat(segmentation.chunks().getLast().turnIds()).containsExactly("D1:2");
        }

        @Test
        void sessionWithoutTurnsGetsNoPage() {
            CanonicalText canonical = ConversationRenderer.render(
                    List.of(
                            session("morning", turn("A", "One.")),
                            new Session("empty", "noon", List.of()),
                            session("evening", turn("B", "Three."))),
                    LIMITS);

            Segmentation segmentation = SMALL.segment(canonical);

            assertConversation(canonical, segmentation);
            assertThat(segmentation.pages())
                    .extracting(Segmentation.Page::sessionId)
                    .containsExactly("1", "3");
            assertThat(segmentation.chunks())
                    .extracting(Segmentation.Chunk::pageOrdinal)
                    .containsExactly(0, 1);
        }

        @Test
        void firstTurnJustUnderTheMaximumStillFitsWithTheHeader() {
            StringBuilder words = new StringBuilder("word");
            while (tokens("Caroline: " + words + " word") <= STANDARD_MAX_CHUNK - 2) {
                words.append(" word");
            }
            CanonicalText canonical = conversation(
                    session("1:56 pm on 8 May, 2023", turn("Caroline", words.toString()), turn("Melanie", "ok")));
            assertThat(tokens(canonical.turns().getFirst().span().of(canonical.text())))
                    .isLessThanOrEqualTo(STANDARD_MAX_CHUNK);

            Segmentation segmentation = Segmenter.standard().segment(canonical);

            assertChunksFit(segmentation, STANDARD_MAX_CHUNK);
        }
    }
}
