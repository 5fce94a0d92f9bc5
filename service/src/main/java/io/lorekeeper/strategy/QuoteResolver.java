package io.lorekeeper.strategy;

import java.util.Optional;

import io.lorekeeper.text.Span;

/**
 * Finds a quote a model copied from a passage (a MindGraph block, a COSMIR chunk): exactly, then
 * ignoring whitespace, then ignoring case, whitespace and punctuation, then approximately (the best
 * window of the passage whose edit distance to the quote, both reduced to letters and digits, is
 * within 10% of the quote's length).
 * Returns absolute spans of the source's own text, never invented offsets.
 */
public final class QuoteResolver {

    /** How a quote was found. */
    public enum Method {
        EXACT,
        WHITESPACE,
        NORMALIZED,
        FUZZY
    }

    public record Resolved(Span span, Method method) {}

    static final int MIN_FUZZY_LENGTH = 12;
    static final int MAX_FUZZY_LENGTH = 600;

    private QuoteResolver() {}

    public static Optional<Resolved> resolve(String quote, String passage, int passageStart) {
        if (quote == null || quote.isBlank()) {
            return Optional.empty();
        }
        String wanted = quote.strip();
        return SpanLocator.exactly(wanted, passage, passageStart)
                .map(span -> new Resolved(span, Method.EXACT))
                .or(() -> SpanLocator.spaced(wanted, passage, passageStart)
                        .map(span -> new Resolved(span, Method.WHITESPACE)))
                .or(() -> reduced(wanted, passage, passageStart));
    }

    /** Ignoring case, whitespace and punctuation: exactly, then approximately. */
    private static Optional<Resolved> reduced(String wanted, String passage, int passageStart) {
        Reduced source = Reduced.of(passage);
        String needle = Reduced.of(wanted).text;
        if (needle.length() < 3) {
            return Optional.empty();
        }
        int at = source.text.indexOf(needle);
        if (at >= 0) {
            return Optional.of(new Resolved(source.span(at, at + needle.length(), passageStart), Method.NORMALIZED));
        }
        if (needle.length() < MIN_FUZZY_LENGTH || needle.length() > MAX_FUZZY_LENGTH) {
            return Optional.empty();
        }
        return fuzzy(needle, source, passageStart);
    }

    /**
     * Approximate substring match (Sellers): the window of the source with the fewest edits to the
     * needle, found with one dynamic-programming pass that carries each cell's window start.
     */
    private static Optional<Resolved> fuzzy(String needle, Reduced source, int passageStart) {
        int m = needle.length();
        int limit = Math.max(1, m / 10);
        String hay = source.text;
        int[] cost = new int[m + 1];
        int[] start = new int[m + 1];
        int[] prevCost = new int[m + 1];
        int[] prevStart = new int[m + 1];
        for (int i = 0; i <= m; i++) {
            prevCost[i] = i;
            prevStart[i] = 0;
        }
        int best = Integer.MAX_VALUE;
        int bestEnd = -1;
        int bestStart = -1;
        for (int j = 1; j <= hay.length(); j++) {
            cost[0] = 0;
            start[0] = j;
            char h = hay.charAt(j - 1);
            for (int i = 1; i <= m; i++) {
                int sub = prevCost[i - 1] + (needle.charAt(i - 1) == h ? 0 : 1);
                int del = prevCost[i] + 1;
                int ins = cost[i - 1] + 1;
                if (sub <= del && sub <= ins) {
                    cost[i] = sub;
                    start[i] = prevStart[i - 1];
                } else if (del <= ins) {
                    cost[i] = del;
                    start[i] = prevStart[i];
                } else {
                    cost[i] = ins;
                    start[i] = start[i - 1];
                }
            }
            if (cost[m] < best) {
                best = cost[m];
                bestEnd = j;
                bestStart = start[m];
            }
            int[] t = prevCost;
            prevCost = cost;
            cost = t;
            t = prevStart;
            prevStart = start;
            start = t;
        }
        if (best > limit || bestEnd <= bestStart) {
            return Optional.empty();
        }
        return Optional.of(new Resolved(source.span(bestStart, bestEnd, passageStart), Method.FUZZY));
    }

    /** Text reduced to lower-case letters and digits, with each kept character's index in the original. */
    private record Reduced(String text, int[] index) {
        static Reduced of(String original) {
            StringBuilder out = new StringBuilder(original.length());
            int[] index = new int[original.length()];
            int n = 0;
            for (int i = 0; i < original.length(); i++) {
                char c = original.charAt(i);
                if (Character.isLetterOrDigit(c)) {
                    out.append(Character.toLowerCase(c));
                    index[n++] = i;
                }
            }
            return new Reduced(out.toString(), java.util.Arrays.copyOf(index, n));
        }

        /** The original span covering reduced characters {@code [from, to)}. */
        Span span(int from, int to, int offset) {
            return new Span(offset + index[from], offset + index[to - 1] + 1);
        }
    }
}
