package io.lorekeeper.document.intake;

import java.util.List;

import io.lorekeeper.text.Span;

/**
 * The one text every offset of a document points into, with the position of each conversation
 * session and turn in it (empty lists for plain texts).
 */
public record CanonicalText(String text, List<RenderedSession> sessions, List<RenderedTurn> turns) {

    public record RenderedSession(int index, String id, String dateTime, Span span) {}

    /** A turn's span covers its whole line, {@code speaker: text}. */
    public record RenderedTurn(
            String id, int sessionIndex, String sessionId, int turnIndex, String speaker, Span span) {}

    public static CanonicalText plain(String text) {
        return new CanonicalText(text, List.of(), List.of());
    }
}
