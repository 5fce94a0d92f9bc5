package io.lorekeeper.reasoning.mindgraph;

import java.util.ArrayList;
import java.util.List;

import io.lorekeeper.text.SentenceSplitter;
import io.lorekeeper.text.Span;
import io.lorekeeper.text.TokenCounter;

/**
 * The build's token-bounded blocks: consecutive sentences of the canonical text, cut at sentence
 * boundaries once the next sentence would take a block past {@code maxTokens} (a single sentence
 * longer than that is a block of its own). Computed from an offset onward, so a build that
 * stopped, or a conversation that grew, continues where the last block ended.
 */
final class Blocks {

    /** A block: its 0-based position in the whole build and its span {@code [start, end)}. */
    record Block(int index, int start, int end) {
    }

    private Blocks() {
    }

    static List<Block> split(String text, int from, int firstIndex, int maxTokens) {
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
