package io.lorekeeper.strategy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.IntUnaryOperator;

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

    /** The papers' chunk length (COSMIR's and Chain of Agents' experiments alike). */
    public static final int DEFAULT_CHUNK_TOKENS = 64_000;

    static final int MIN_CHUNK_TOKENS = 32;
    static final int MAX_CHUNK_TOKENS = 2_000_000;

    private ChunkedReading() {}

    /**
     * One chunk: its 1-based position among all chunks of the question, the document it lies in
     * (and that document's 1-based position), its span, its text and the whole document's text.
     */
    public record Chunk(
            int number, int total, UUID documentId, int documentNumber, Span span, String text, String documentText) {

        /** The document's text before this chunk: what was read of it already. */
        public String before() {
            return documentText.substring(0, span.start());
        }

        /** "Chunk 2 of 5", with the document named when the question has several. */
        public String heading(int documents) {
            return "Chunk " + number + " of " + total
                    + (documents > 1 ? " (document " + documentNumber + " of " + documents + ")" : "");
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
            chunks.add(new Chunk(
                    chunks.size() + 1,
                    blocks.size(),
                    b.documentId(),
                    b.documentNumber(),
                    b.span(),
                    b.span().of(b.text()),
                    b.text()));
        }
        return chunks;
    }

    /**
     * About how many chunks {@link #of} will make of these documents, from their token counts alone
     * (each document at least one), for sizing a question's wall time before its texts are read.
     */
    public static int expectedChunks(List<DocumentInfo> documents, int chunkTokens) {
        long chunks = 0;
        for (DocumentInfo document : documents) {
            chunks += Math.max(1, (document.tokenCount() + (long) chunkTokens - 1) / chunkTokens);
        }
        return (int) Math.min(Integer.MAX_VALUE / 4, chunks);
    }

    /** What one call to the model is expected to take at most, for a chain-style question's default wall time. */
    public static final long SECONDS_PER_CALL = 30;

    /**
     * The wall time a chain-style question needs when its budget does not say: about
     * {@value #SECONDS_PER_CALL} s for each of the {@code calls} its reading makes, so that a long book
     * is not cut off by the service's default (which still applies when it is longer).
     */
    public static Optional<Duration> wallTime(long calls) {
        return Optional.of(Duration.ofSeconds(SECONDS_PER_CALL * calls));
    }

    private record Block(UUID documentId, int documentNumber, Span span, String text) {}

    /** A question's chunk length, and whether the paper's default was lowered to fit the model. */
    public record ChunkSize(int tokens, boolean lowered) {}

    /**
     * The chunk length for a question. A {@code chunkTokens} option must fit the model: the chunk,
     * the {@code carried} tokens of memory a call takes besides a chunk of that length, and
     * {@link #PROMPT_ALLOWANCE} within the prompt tokens the researcher's model takes; otherwise it is
     * refused as a problem naming {@code options.chunkTokens}. Without the option the paper's
     * {@value #DEFAULT_CHUNK_TOKENS} tokens are used, or the largest length that fits a smaller window.
     */
    public static ChunkSize chunkSize(
            String strategy, QuestionOptions options, IntUnaryOperator carried, ContextLimit limit) {
        Long requested = options.longValue("chunkTokens", MIN_CHUNK_TOKENS, MAX_CHUNK_TOKENS);
        int largest = largestFitting(carried, limit);
        if (requested != null) {
            int tokens = requested.intValue();
            if (tokens > largest) {
                long needed = (long) tokens + carried.applyAsInt(tokens) + PROMPT_ALLOWANCE;
                throw ApiProblem.invalid(
                        "options.chunkTokens",
                        strategy + " with chunkTokens " + tokens + " sends up to " + needed
                                + " prompt tokens per call (the chunk, " + carried.applyAsInt(tokens)
                                + " tokens of memory and " + PROMPT_ALLOWANCE
                                + " of instructions), but the model of profile '" + limit.profile() + "' takes at most "
                                + limit.promptTokens()
                                + " (context-window " + limit.contextWindow() + " less " + limit.maxOutputTokens()
                                + " kept for the reply); "
                                + (largest >= MIN_CHUNK_TOKENS ? "use chunkTokens of at most " + largest + ", " : "")
                                + "or configure a larger context-window for that profile");
            }
            return new ChunkSize(tokens, false);
        }
        if (largest < MIN_CHUNK_TOKENS) {
            throw ApiProblem.invalid(
                    "options.chunkTokens",
                    strategy + " cannot fit even a " + MIN_CHUNK_TOKENS
                            + "-token chunk into the " + limit.promptTokens() + " prompt tokens the model of profile '"
                            + limit.profile()
                            + "' takes; configure a larger context-window for that profile");
        }
        return largest >= DEFAULT_CHUNK_TOKENS
                ? new ChunkSize(DEFAULT_CHUNK_TOKENS, false)
                : new ChunkSize(largest, true);
    }

    /** The longest chunk whose calls fit; below {@link #MIN_CHUNK_TOKENS} when none does. Carried memory grows with the chunk. */
    private static int largestFitting(IntUnaryOperator carried, ContextLimit limit) {
        int low = MIN_CHUNK_TOKENS - 1;
        int high = MAX_CHUNK_TOKENS;
        while (low < high) {
            int mid = (int) (((long) low + high + 1) / 2);
            if ((long) mid + carried.applyAsInt(mid) + PROMPT_ALLOWANCE <= limit.promptTokens()) {
                low = mid;
            } else {
                high = mid - 1;
            }
        }
        return low;
    }
}
