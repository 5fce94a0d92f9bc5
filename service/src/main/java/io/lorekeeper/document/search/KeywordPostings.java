package io.lorekeeper.document.search;

import java.util.Map;
import java.util.UUID;

/**
 * One document's inverted index at one keyword generation, as the in-memory keyword index keeps
 * it: for each lexeme the chunks holding it, in chunk order, with its term frequency. A chunk is a
 * local number (its position in ordinal order); its database id and length sit in arrays beside.
 *
 * <p>A posting is one int: the local chunk number shifted left by 8 bits, the term frequency minus
 * one in the low 8 (PostgreSQL keeps at most 256 positions of a lexeme in a chunk's vector, so the
 * frequency always fits). Sorted ints are then sorted by chunk, and a lookup is a binary search.
 * Four bytes a posting: the 10M-token benchmark corpus has 3.3 million, and with its 370,594
 * (document, lexeme) entries its index takes 37 MB of heap.
 */
final class KeywordPostings {

    private static final int TF_BITS = 8;
    private static final int TF_MASK = (1 << TF_BITS) - 1;

    private final UUID documentId;
    private final long generation;
    private final long[] chunkIds;
    private final int[] termCounts;
    private final long termTotal;
    private final Map<String, Term> terms;
    private final long postingCount;
    private final long estimatedBytes;
    private volatile long lastUsed;

    /** A lexeme's postings in this document, and what bounds its score: its highest frequency and shortest chunk. */
    record Term(int[] postings, int maxTf, int minLength) {

        int size() {
            return postings.length;
        }
    }

    KeywordPostings(UUID documentId, long generation, long[] chunkIds, int[] termCounts, Map<String, Term> terms) {
        this.documentId = documentId;
        this.generation = generation;
        this.chunkIds = chunkIds;
        this.termCounts = termCounts;
        this.terms = Map.copyOf(terms);
        long total = 0;
        for (int count : termCounts) {
            total += count;
        }
        this.termTotal = total;
        this.postingCount = this.terms.values().stream().mapToLong(Term::size).sum();
        this.estimatedBytes = estimate(chunkIds.length, this.terms);
        this.lastUsed = System.nanoTime();
    }

    /**
     * The heap these postings take, estimated from their shapes on a 64-bit JVM with compressed references:
     * 4 bytes a posting; per lexeme its int array's header (16), its Term (24), its String (24 + 16 + one byte
     * a Latin-1 character) and its map slots (8); 12 bytes a chunk (its id and term count).
     */
    private static long estimate(int chunks, Map<String, Term> terms) {
        long bytes = 12L * chunks + 32;
        for (Map.Entry<String, Term> term : terms.entrySet()) {
            bytes += 4L * term.getValue().size() + 16 + 24 + 40 + term.getKey().length() + 8;
        }
        return bytes;
    }

    long estimatedBytes() {
        return estimatedBytes;
    }

    static int posting(int chunk, int tf) {
        return chunk << TF_BITS | (Math.min(Math.max(tf, 1), TF_MASK + 1) - 1);
    }

    static int chunkOf(int posting) {
        return posting >>> TF_BITS;
    }

    static int tfOf(int posting) {
        return (posting & TF_MASK) + 1;
    }

    /** The smallest posting a chunk can have: where a binary search for it starts. */
    static int firstPostingOf(int chunk) {
        return chunk << TF_BITS;
    }

    /** A lexeme's postings, null when no chunk of the document holds it. */
    Term term(String lexeme) {
        return terms.get(lexeme);
    }

    UUID documentId() {
        return documentId;
    }

    long generation() {
        return generation;
    }

    int chunkCount() {
        return chunkIds.length;
    }

    long termTotal() {
        return termTotal;
    }

    long chunkId(int chunk) {
        return chunkIds[chunk];
    }

    int termCount(int chunk) {
        return termCounts[chunk];
    }

    long postingCount() {
        return postingCount;
    }

    long lastUsed() {
        return lastUsed;
    }

    void touch() {
        lastUsed = System.nanoTime();
    }
}
