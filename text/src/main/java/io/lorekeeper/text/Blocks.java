package io.lorekeeper.text;

import java.util.ArrayList;
import java.util.List;

/**
 * Token-bounded blocks of a text: consecutive sentences, cut at sentence boundaries once the next
 * sentence would take a block past {@code maxTokens} (a single sentence longer than that is a block
 * of its own). Computed from an offset onward, so a reader that stopped, or a conversation that
 * grew, continues where the last block ended. MindGraph builds over them; COSMIR and Chain of
 * Agents read documents in them.
 */
public final class Blocks {

    /** A block: its 0-based position in the whole build and its span {@code [start, end)}. */
    public record Block(int index, int start, int end) {

        public Span span() {
            return new Span(start, end);
        }
    }

    private Blocks() {}

    public static List<Block> split(String text, int from, int firstIndex, int maxTokens) {
        List<Block> blocks = new ArrayList<>();
        if (from >= text.length()) {
            return blocks;
        }
        List<Span> sentences = SentenceSplitter.split(text, from, text.length());
        int start = -1;
        int end = -1;
        int tokens = 0;
        for (Span sentence : sentences) {
            int n = TokenCounter.count(text, sentence.start(), sentence.end());
            if (start >= 0 && tokens + n > maxTokens) {
                blocks.add(new Block(firstIndex + blocks.size(), start, end));
                start = -1;
                tokens = 0;
            }
            if (start < 0) {
                start = sentence.start();
            }
            end = sentence.end();
            tokens += n;
        }
        if (start >= 0) {
            blocks.add(new Block(firstIndex + blocks.size(), start, end));
        }
        return blocks;
    }
}
