package io.lorekeeper.reasoning;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.lorekeeper.document.DocumentInfo;
import io.lorekeeper.document.Documents;
import io.lorekeeper.llm.ContextLimit;
import io.lorekeeper.platform.ApiProblem;
import io.lorekeeper.text.Blocks;
import io.lorekeeper.text.Span;

/**
 * How chain-style strategies (COSMIR, Chain of Agents) read: every document of the question from
 * start to end, one document after another, in sentence-aligned chunks of at most
 * {@code chunkTokens} tokens with exact offsets. A chunk never spans two documents.
 */
public final class ChunkedReading {

    /**
     * Tokens of instructions, question and reply framing that every chunk-reading call carries
     * besides the chunk and the memory it is given (the longest template is about 600 tokens).
     */
    public static final int PROMPT_ALLOWANCE = 2_000;

    private ChunkedReading() {
    }

    /**
     * One chunk: its 1-based position among all chunks of the question, the document it lies in
     * (and that document's 1-based position), its span, its text and the whole document's text.
     */
    public record Chunk(int number, int total, UUID documentId, int documentNumber, Span span, String text, String documentText) {

        /** The document's text before this chunk: what was read of it already. */
        public String before() {
            return documentText.substring(0, span.start());
        }

        /** "Chunk 2 of 5", with the document named when the question has several. */
        public String heading(int documents) {
            return "Chunk " + number + " of " + total + (documents > 1 ? " (document " + documentNumber + " of " + documents + ")" : "");
        }
    }

    public static List<Chunk> of(List<DocumentInfo> documents, Documents texts, int chunkTokens) {
        List<Block> blocks = new ArrayList<>();
        for (int d = 0; d < documents.size(); d++) {
            UUID id = documents.get(d).id();
            String text = texts.text(id);
            for (Blocks.Block block : Blocks.split(text, 0, 0, chunkTokens)) {
                blocks.add(new Block(id, d + 1, block.span(), text));
            }
        }
        List<Chunk> chunks = new ArrayList<>();
        for (Block b : blocks) {
            chunks.add(new Chunk(chunks.size() + 1, blocks.size(), b.documentId(), b.documentNumber(), b.span(), b.span().of(b.text()),
                    b.text()));
        }
        return chunks;
    }

    private record Block(UUID documentId, int documentNumber, Span span, String text) {
    }

    /**
     * Refuses, as a problem naming {@code options.chunkTokens}, a chunk size whose calls cannot fit
     * the model's context window: a chunk, the {@code carriedTokens} of memory handed on with it and
     * {@link #PROMPT_ALLOWANCE} must fit the prompt tokens the model takes.
     */
    public static void requireFits(String strategy, int chunkTokens, int carriedTokens, ContextLimit limit) {
        long needed = (long) chunkTokens + carriedTokens + PROMPT_ALLOWANCE;
        if (needed > limit.promptTokens()) {
            throw ApiProblem.invalid("options.chunkTokens", strategy + " with chunkTokens " + chunkTokens + " sends up to " + needed
                    + " prompt tokens per call (the chunk, " + carriedTokens + " tokens of memory and " + PROMPT_ALLOWANCE
                    + " of instructions), but the model of profile '" + limit.profile() + "' takes at most " + limit.promptTokens()
                    + " (context-window " + limit.contextWindow() + " less max-output-tokens " + limit.maxOutputTokens()
                    + "); lower chunkTokens to at most " + Math.max(0, (limit.promptTokens() - PROMPT_ALLOWANCE) * chunkTokens
                            / Math.max(1, chunkTokens + carriedTokens))
                    + " or configure a larger context-window for that profile");
        }
    }
}
