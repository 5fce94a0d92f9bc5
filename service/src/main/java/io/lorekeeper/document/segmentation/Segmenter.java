package io.lorekeeper.document.segmentation;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import io.lorekeeper.document.intake.CanonicalText;
import io.lorekeeper.document.intake.CanonicalText.RenderedSession;
import io.lorekeeper.document.intake.CanonicalText.RenderedTurn;
import io.lorekeeper.text.SentenceSplitter;
import io.lorekeeper.text.Span;
import io.lorekeeper.text.TokenCounter;

/**
 * Cuts canonical text into retrieval chunks and GAM pages.
 *
 * <p>Texts: sentence-aligned chunks of about {@code chunkTokens} tokens (a sentence longer than
 * {@code maxChunkTokens} is cut at word boundaries so every chunk fits the embedding model's
 * window), grouped into pages of at most {@code pageTokens}. Conversations: a chunk holds one turn
 * (a few very short consecutive turns share one), never crossing sessions, and each session is one
 * page, because a session is the natural unit a conversation memory is written about. One-turn units
 * let a fixed context budget hold turns from more places (multi-hop questions' evidence is spread
 * over sessions); each carries the unit before it as its lead (a turn often answers the one before,
 * which holds the question's words) and its speakers. Measured in docs/benchmarks.md (2026-11-25).
 *
 * @param turnChunkTokens the most tokens one chunk of a few short consecutive turns holds
 */
record Segmenter(int chunkTokens, int maxChunkTokens, int turnChunkTokens, int pageTokens) {

    static Segmenter standard() {
        return new Segmenter(256, 320, 32, 2048);
    }

    Segmentation segment(CanonicalText canonical) {
        return segment(canonical, List.of());
    }

    /**
     * As {@link #segment(CanonicalText)}, for a text whose file had pages or sections starting at
     * {@code boundaries}: no chunk crosses one, and a page ends at one when the next page or section
     * would not fit in it (within a page or section too long for one page, pages break between chunks).
     */
    Segmentation segment(CanonicalText canonical, List<Integer> boundaries) {
        return canonical.turns().isEmpty()
                ? segmentText(canonical.text(), boundaries)
                : segmentConversation(canonical, Continuation.START);
    }

    /**
     * Where a conversation's stored segmentation ends: sessions starting at or after {@code offset}
     * are not segmented yet, and new chunks and pages are numbered from {@code nextChunk} and
     * {@code nextPage}.
     */
    record Continuation(int offset, int nextChunk, int nextPage) {
        static final Continuation START = new Continuation(0, 0, 0);
    }

    /**
     * Chunks and pages for the sessions of a grown conversation that are not segmented yet. Chunks
     * never cross sessions and a page is one session, so segmenting the new sessions alone gives
     * exactly the tail that segmenting the whole conversation would: earlier chunks, their ids and
     * embeddings, and the memos written about earlier pages all stay valid.
     */
    Segmentation segmentConversation(CanonicalText canonical, Continuation from) {
        String text = canonical.text();
        List<Segmentation.Chunk> chunks = new ArrayList<>();
        List<Segmentation.Page> pages = new ArrayList<>();
        Map<Integer, List<RenderedTurn>> turnsBySession =
                canonical.turns().stream().collect(Collectors.groupingBy(RenderedTurn::sessionIndex));
        for (RenderedSession session : canonical.sessions()) {
            if (session.span().start() < from.offset()) {
                continue;
            }
            segmentSession(turnsBySession.getOrDefault(session.index(), List.of()), session, text, chunks, pages, from);
        }
        return new Segmentation(chunks, pages);
    }

    private Segmentation segmentText(String text, List<Integer> boundaries) {
        List<Span> regions = regions(text.length(), boundaries);
        List<Segmentation.Chunk> chunks = new ArrayList<>();
        List<Segmentation.Page> pages = new ArrayList<>();
        int pageStartChunk = 0;
        int pageTokensSoFar = 0;
        for (Span region : regions) {
            List<Piece> pieces = regions.size() == 1
                    ? pieces(text, SentenceSplitter.split(text), maxChunkTokens)
                    : pieces(text, SentenceSplitter.split(text, region.start(), region.end()), maxChunkTokens);
            List<Span> chunkSpans = pack(text, pieces, chunkTokens);
            List<Integer> tokenCounts = new ArrayList<>();
            int regionTokens = 0;
            for (Span span : chunkSpans) {
                int tokens = TokenCounter.count(span.of(text));
                tokenCounts.add(tokens);
                regionTokens += tokens;
            }
            // a page or section that does not fit after what the page holds starts a page of its own
            if (pageTokensSoFar > 0 && regions.size() > 1 && pageTokensSoFar + regionTokens > pageTokens) {
                pages.add(page(pages.size(), pageStartChunk, chunks.size() - 1, chunks, pageTokensSoFar, null));
                pageStartChunk = chunks.size();
                pageTokensSoFar = 0;
            }
            for (int c = 0; c < chunkSpans.size(); c++) {
                Span span = chunkSpans.get(c);
                int tokens = tokenCounts.get(c);
                if (pageTokensSoFar > 0 && pageTokensSoFar + tokens > pageTokens) {
                    pages.add(page(pages.size(), pageStartChunk, chunks.size() - 1, chunks, pageTokensSoFar, null));
                    pageStartChunk = chunks.size();
                    pageTokensSoFar = 0;
                }
                chunks.add(new Segmentation.Chunk(
                        chunks.size(), pages.size(), span, span.of(text), tokens, List.of(), null, List.of()));
                pageTokensSoFar += tokens;
            }
        }
        if (!chunks.isEmpty()) {
            pages.add(page(pages.size(), pageStartChunk, chunks.size() - 1, chunks, pageTokensSoFar, null));
        }
        return new Segmentation(chunks, pages);
    }

    /** The text cut at the boundaries strictly inside it, in order; the whole text when there are none. */
    private static List<Span> regions(int length, List<Integer> boundaries) {
        List<Integer> cuts = boundaries.stream()
                .filter(b -> b > 0 && b < length)
                .distinct()
                .sorted()
                .toList();
        List<Span> regions = new ArrayList<>();
        int start = 0;
        for (int cut : cuts) {
            regions.add(new Span(start, cut));
            start = cut;
        }
        regions.add(new Span(start, length));
        return regions;
    }

    /** Appends one session's chunks and its page, numbered after {@code from} and what is already in the lists. */
    private void segmentSession(
            List<RenderedTurn> turns,
            RenderedSession session,
            String text,
            List<Segmentation.Chunk> chunks,
            List<Segmentation.Page> pages,
            Continuation from) {
        int firstChunk = chunks.size();
        int pageOrdinal = from.nextPage() + pages.size();
        // The header line ("[Session 3, 7:55 pm on 9 June, 2023]") opens the session's first
        // chunk, so that the date travels with what was said. -1: start at the next turn.
        int openStart = session.span().start();
        List<RenderedTurn> pendingTurns = new ArrayList<>();
        int pendingEnd = -1;
        int pendingTokens = 0;
        for (RenderedTurn turn : turns) {
            int turnTokens = TokenCounter.count(turn.span().of(text));
            // The first chunk of a session also carries the header line: count it too.
            int chunkStart =
                    pendingEnd < 0 && openStart >= 0 ? openStart : turn.span().start();
            boolean oversize = TokenCounter.count(text, chunkStart, turn.span().end()) > maxChunkTokens;
            if (pendingEnd >= 0 && (oversize || pendingTokens + turnTokens > turnChunkTokens)) {
                addSessionChunk(
                        chunks, from, pageOrdinal, firstChunk, new Span(openStart, pendingEnd), text, pendingTurns);
                openStart = -1;
                pendingTurns = new ArrayList<>();
                pendingEnd = -1;
                pendingTokens = 0;
            }
            if (openStart < 0) {
                openStart = turn.span().start();
            }
            if (oversize) {
                splitOversizeTurn(turn, openStart, text, chunks, pageOrdinal, from, firstChunk);
                openStart = -1;
                continue;
            }
            pendingTurns.add(turn);
            pendingEnd = turn.span().end();
            pendingTokens += turnTokens;
        }
        if (pendingEnd >= 0) {
            addSessionChunk(chunks, from, pageOrdinal, firstChunk, new Span(openStart, pendingEnd), text, pendingTurns);
        }
        if (chunks.size() > firstChunk) {
            pages.add(sessionPage(session, chunks, firstChunk, pageOrdinal, from));
        }
    }

    /**
     * A turn too long for one chunk is cut at sentences into chunks of its own; the first keeps what
     * was open before it (the session's header line).
     */
    private void splitOversizeTurn(
            RenderedTurn turn,
            int openStart,
            String text,
            List<Segmentation.Chunk> chunks,
            int pageOrdinal,
            Continuation from,
            int firstChunk) {
        int headerTokens = TokenCounter.count(text, openStart, turn.span().start());
        List<Piece> pieces = pieces(
                text,
                SentenceSplitter.split(text, turn.span().start(), turn.span().end()),
                maxChunkTokens - headerTokens);
        List<Span> parts = pack(text, pieces, chunkTokens);
        for (int p = 0; p < parts.size(); p++) {
            Span part = p == 0 ? new Span(openStart, parts.get(p).end()) : parts.get(p);
            addSessionChunk(chunks, from, pageOrdinal, firstChunk, part, text, List.of(turn));
        }
    }

    /** The session as one page over the chunks added for it. */
    private static Segmentation.Page sessionPage(
            RenderedSession session,
            List<Segmentation.Chunk> chunks,
            int firstChunk,
            int pageOrdinal,
            Continuation from) {
        int tokens = chunks.subList(firstChunk, chunks.size()).stream()
                .mapToInt(Segmentation.Chunk::tokens)
                .sum();
        return new Segmentation.Page(
                pageOrdinal,
                from.nextChunk() + firstChunk,
                from.nextChunk() + chunks.size() - 1,
                new Span(
                        chunks.get(firstChunk).span().start(),
                        chunks.getLast().span().end()),
                tokens,
                session.id());
    }

    /**
     * Appends a chunk of a session's page, numbered after {@code from} and the chunks already in the
     * list, with the session's previous chunk (none for its first) as its lead.
     */
    private void addSessionChunk(
            List<Segmentation.Chunk> chunks,
            Continuation from,
            int pageOrdinal,
            int firstChunk,
            Span span,
            String text,
            List<RenderedTurn> turns) {
        chunks.add(chunk(from.nextChunk() + chunks.size(), pageOrdinal, span, text, turns, lead(chunks, firstChunk)));
    }

    private Segmentation.Chunk chunk(
            int ordinal, int page, Span span, String text, List<RenderedTurn> turns, String lead) {
        String chunkText = span.of(text);
        return new Segmentation.Chunk(
                ordinal,
                page,
                span,
                chunkText,
                TokenCounter.count(chunkText),
                turns.stream().map(RenderedTurn::id).toList(),
                lead,
                turns.stream().map(RenderedTurn::speaker).distinct().sorted().toList());
    }

    /** The lead of the next chunk of a session: the chunk before it, when the session has one yet. */
    private static String lead(List<Segmentation.Chunk> chunks, int sessionFirstChunk) {
        return chunks.size() > sessionFirstChunk ? chunks.getLast().text() : null;
    }

    private static Segmentation.Page page(
            int ordinal, int first, int last, List<Segmentation.Chunk> chunks, int tokens, String sessionId) {
        return new Segmentation.Page(
                ordinal,
                first,
                last,
                new Span(
                        chunks.get(first).span().start(),
                        chunks.get(last).span().end()),
                tokens,
                sessionId);
    }

    private record Piece(Span span, int tokens) {}

    /** Sentences, with any sentence over {@code limit} tokens cut into word-aligned parts. */
    private List<Piece> pieces(String text, List<Span> sentences, int limit) {
        List<Piece> pieces = new ArrayList<>();
        for (Span sentence : sentences) {
            int tokens = TokenCounter.count(sentence.of(text));
            if (tokens <= limit) {
                pieces.add(new Piece(sentence, tokens));
            } else {
                pieces.addAll(cutAtWords(text, sentence));
            }
        }
        return pieces;
    }

    private List<Piece> cutAtWords(String text, Span sentence) {
        List<Piece> parts = new ArrayList<>();
        int start = sentence.start();
        int tokens = 0;
        int i = start;
        while (i < sentence.end()) {
            int wordEnd = i;
            while (wordEnd < sentence.end() && !Character.isWhitespace(text.charAt(wordEnd))) {
                wordEnd++;
            }
            int wordTokens = TokenCounter.count(text, i, wordEnd);
            if (tokens > 0 && tokens + wordTokens > chunkTokens) {
                parts.add(trimmed(text, start, i));
                start = i;
                tokens = 0;
            }
            if (wordTokens > maxChunkTokens) {
                parts.addAll(cutByCharacters(text, i, wordEnd));
                start = wordEnd;
                tokens = 0;
            } else {
                tokens += wordTokens + 1;
            }
            i = wordEnd;
            while (i < sentence.end() && Character.isWhitespace(text.charAt(i))) {
                i++;
            }
        }
        if (start < sentence.end()) {
            parts.add(trimmed(text, start, sentence.end()));
        }
        parts.removeIf(p -> p.span().length() == 0);
        return parts;
    }

    /**
     * A "word" longer than a chunk (a URL, base64, a table without spaces) is cut by characters;
     * token density varies inside such strings, so each cut is shrunk until it fits.
     */
    private List<Piece> cutByCharacters(String text, int from, int to) {
        List<Piece> parts = new ArrayList<>();
        int s = from;
        while (s < to) {
            int e = Math.min(to, s + chunkTokens * 4);
            int tokens = TokenCounter.count(text, s, e);
            while (tokens > chunkTokens && e - s > 1) {
                e = s + Math.max(1, (int) ((e - s) * 0.8 * chunkTokens / tokens));
                tokens = TokenCounter.count(text, s, e);
            }
            parts.add(new Piece(new Span(s, e), tokens));
            s = e;
        }
        return parts;
    }

    private static Piece trimmed(String text, int start, int end) {
        while (end > start && Character.isWhitespace(text.charAt(end - 1))) {
            end--;
        }
        return new Piece(new Span(start, end), TokenCounter.count(text, start, end));
    }

    /**
     * Greedily packs consecutive pieces into spans of at most {@code budget} tokens, counting the
     * whitespace between pieces too (a run of blank lines costs tokens of its own).
     */
    private static List<Span> pack(String text, List<Piece> pieces, int budget) {
        List<Span> spans = new ArrayList<>();
        int start = -1;
        int end = -1;
        int tokens = 0;
        for (Piece piece : pieces) {
            int separator =
                    start < 0 ? 0 : TokenCounter.count(text, end, piece.span().start());
            if (start >= 0 && tokens + separator + piece.tokens() > budget) {
                spans.add(new Span(start, end));
                start = -1;
                tokens = 0;
                separator = 0;
            }
            if (start < 0) {
                start = piece.span().start();
            }
            end = piece.span().end();
            tokens += separator + piece.tokens();
        }
        if (start >= 0) {
            spans.add(new Span(start, end));
        }
        return spans;
    }
}
