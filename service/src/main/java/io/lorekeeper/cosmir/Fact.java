package io.lorekeeper.cosmir;

import java.util.List;
import java.util.UUID;

import io.lorekeeper.text.Span;
import io.lorekeeper.text.TokenCounter;

/**
 * One entry of the memory. A gathered fact ({@code G<n>}) was taken from a chunk and carries the
 * quote the worker gave for it and, when that quote was found in the chunk, its evidence; an
 * inferred fact ({@code I<n>}) rests on the facts named in {@code basis}.
 *
 * @param chunk    the chunk being read when the fact was added (1-based)
 * @param evidence null for inferred facts and for gathered facts whose quote was not found: those
 *                 are never cited
 * @param tokens   tokens of the fact's line in the rendered memory (its quote included), which is what
 *                 pruning and the extraction bound measure
 */
record Fact(String id, String text, int chunk, String quote, Evidence evidence, List<String> basis, int tokens) {

    /** Where a gathered fact's quote lies: the source text at {@code span} of the document. */
    record Evidence(UUID documentId, Span span, String source) {}

    static Fact gathered(String id, String text, int chunk, String quote, Evidence evidence) {
        return new Fact(id, text, chunk, quote, evidence, List.of(), 0).measured();
    }

    static Fact inferred(String id, String text, int chunk, List<String> basis) {
        return new Fact(id, text, chunk, null, null, List.copyOf(basis), 0).measured();
    }

    boolean isInferred() {
        return !basis.isEmpty();
    }

    /**
     * The fact as the workers and the manager see it. A gathered fact shows the words it was taken
     * from, so that later steps can weigh the text itself and not only the worker's reading of it:
     * the passage found in the text, or the worker's quote marked as not found.
     */
    String line() {
        if (isInferred()) {
            return "[" + id + "] " + text + " (from " + String.join(", ", basis) + ")";
        }
        String base = "[" + id + "] " + text + " (chunk " + chunk + ")";
        if (evidence != null) {
            return base + " — \"" + oneLine(evidence.source()) + "\"";
        }
        return quote == null || quote.isBlank() ? base : base + " — \"" + oneLine(quote) + "\" (not found in the text)";
    }

    private static String oneLine(String words) {
        return words.strip().replaceAll("\\s+", " ");
    }

    private Fact measured() {
        return new Fact(id, text, chunk, quote, evidence, basis, TokenCounter.count(line()) + 1);
    }
}
