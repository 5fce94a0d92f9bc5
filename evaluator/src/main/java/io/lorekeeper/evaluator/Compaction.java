package io.lorekeeper.evaluator;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import io.lorekeeper.evaluator.Metrics.DocSpan;
import io.lorekeeper.text.TokenCounter;

/**
 * How much of the document a strategy put in front of the model, as a share of the document's
 * tokens. A strategy that measures it itself says so in its trace (MindGraph: the input tokens of
 * its answerer's first call ÷ document tokens, as its paper defines it); for the others it
 * is the tokens of the context the strategy used (its retrieved and context spans plus its
 * citations, overlaps counted once) ÷ document tokens.
 */
final class Compaction {

    private Compaction() {}

    /**
     * Tokens of the document text under the spans of {@code documentId}, each character once
     * however many spans cover it; spans are clipped to the text.
     */
    static int contextTokens(String text, String documentId, List<DocSpan> spans) {
        List<int[]> ranges = new ArrayList<>();
        for (DocSpan s : spans) {
            int start = Math.max(0, s.start());
            int end = Math.min(text.length(), s.end());
            if (documentId.equals(s.documentId()) && start < end) {
                ranges.add(new int[] {start, end});
            }
        }
        ranges.sort(Comparator.comparingInt(r -> r[0]));
        int tokens = 0;
        int start = -1;
        int end = -1;
        for (int[] r : ranges) {
            if (r[0] > end) {
                tokens += start < 0 ? 0 : TokenCounter.count(text, start, end);
                start = r[0];
            }
            end = Math.max(end, r[1]);
        }
        return tokens + (start < 0 ? 0 : TokenCounter.count(text, start, end));
    }

    /**
     * The trace's own figure when it has one, else context ÷ document tokens; null for an empty
     * document, where no ratio means anything.
     */
    static Double ratio(Double traced, int contextTokens, int documentTokens) {
        if (traced != null) {
            return traced;
        }
        return documentTokens == 0 ? null : (double) contextTokens / documentTokens;
    }
}
