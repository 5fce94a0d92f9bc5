package io.lorekeeper.strategy;

import java.util.Optional;

import io.lorekeeper.text.Span;

/**
 * Finds where a quote a model copied lies in a passage: exactly first, then ignoring differences
 * in whitespace (models re-wrap lines). Returns absolute spans; the text at the span is the
 * source's own, so a citation built from it passes verification.
 */
public final class SpanLocator {

    private SpanLocator() {}

    /** The span of {@code quote} within {@code passage}, which starts at {@code passageStart} in its document. */
    public static Optional<Span> locate(String quote, String passage, int passageStart) {
        if (quote == null || quote.isBlank()) {
            return Optional.empty();
        }
        String wanted = quote.strip();
        return exactly(wanted, passage, passageStart).or(() -> spaced(wanted, passage, passageStart));
    }

    /** The first occurrence of {@code wanted} (stripped) in {@code passage}, as it stands. */
    static Optional<Span> exactly(String wanted, String passage, int passageStart) {
        int at = passage.indexOf(wanted);
        return at < 0
                ? Optional.empty()
                : Optional.of(new Span(passageStart + at, passageStart + at + wanted.length()));
    }

    /** {@code wanted} (stripped) in {@code passage}, any run of whitespace matching any other. */
    static Optional<Span> spaced(String wanted, String passage, int passageStart) {
        return whitespaceInsensitive(wanted, passage)
                .map(s -> new Span(passageStart + s.start(), passageStart + s.end()));
    }

    /** Matches the quote's non-space characters in order, letting any run of whitespace match any other. */
    private static Optional<Span> whitespaceInsensitive(String quote, String passage) {
        String needle = quote.replaceAll("\\s+", " ");
        for (int start = 0; start < passage.length(); start++) {
            if (Character.isWhitespace(passage.charAt(start)) || passage.charAt(start) != needle.charAt(0)) {
                continue;
            }
            int p = start;
            int q = 0;
            while (p < passage.length() && q < needle.length()) {
                char n = needle.charAt(q);
                if (n == ' ') {
                    if (!Character.isWhitespace(passage.charAt(p))) {
                        break;
                    }
                    while (p < passage.length() && Character.isWhitespace(passage.charAt(p))) {
                        p++;
                    }
                    q++;
                } else if (passage.charAt(p) == n) {
                    p++;
                    q++;
                } else {
                    break;
                }
            }
            if (q == needle.length()) {
                return Optional.of(new Span(start, p));
            }
        }
        return Optional.empty();
    }
}
