package io.lorekeeper.document.search;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The exact BM25 top k over in-memory postings without scoring every chunk a query term selects:
 * MaxScore (Turtle and Flood, 1995), document at a time. Each term's score is bounded by its weight
 * times the BM25 frequency part at its highest frequency in its shortest chunk. Once k chunks are
 * held, the terms whose bounds together stay below the k-th score cannot bring in a chunk by
 * themselves: only the other terms' postings propose candidates, and the cheap ones are looked up
 * (binary search) for those candidates alone, stopping as soon as what is left cannot reach the
 * k-th score. Frequent terms have low IDF, so after the first candidates they stop proposing: the
 * chunks read are those of the rarer terms, not of every term.
 *
 * <p>Scores are BM25 as {@link KeywordSearch} computes it in SQL (same expression, same order of
 * operations), summed over the terms in the order given, so two chunks with the same terms score the
 * same to the last bit and ties go to the lower chunk id as {@code ORDER BY score DESC, id} does.
 */
final class MaxScore {

    /** A query term as scored: its lexeme and its IDF times its weight. */
    record Term(String lexeme, double weight) {}

    /** A searched document with each query term's postings in it, in the terms' order (null: none). */
    record Searched(KeywordPostings document, KeywordPostings.Term[] postings) {

        /** Looks each lexeme up in the document, once. */
        static Searched of(KeywordPostings document, List<String> lexemes) {
            KeywordPostings.Term[] postings = new KeywordPostings.Term[lexemes.size()];
            for (int i = 0; i < postings.length; i++) {
                postings[i] = document.term(lexemes.get(i));
            }
            return new Searched(document, postings);
        }
    }

    /** A chunk in the top k. */
    record Ranked(KeywordPostings document, int chunk, long chunkId, double score) {}

    /** The top k, best first, and how many chunks were scored to find them (for tests and measurements). */
    record Result(List<Ranked> ranked, long scored) {}

    private static final Comparator<Ranked> BEST_FIRST =
            Comparator.comparingDouble(Ranked::score).reversed().thenComparingLong(Ranked::chunkId);

    /** Slack on every bound: a sum in another order may differ from the bounds' sum in the last bits. */
    private static final double SLACK = 1 + 1e-9;

    private final double k1;
    private final double b;
    private final double averageLength;

    MaxScore(double k1, double b, double averageLength) {
        this.k1 = k1;
        this.b = b;
        this.averageLength = averageLength;
    }

    /** The k best chunks of the documents; each document's postings are in the order of {@code terms}. */
    Result top(List<Searched> documents, List<Term> terms, int k) {
        if (k <= 0) {
            return new Result(List.of(), 0);
        }
        TopK top = new TopK(k);
        long scored = 0;
        for (Searched document : documents) {
            scored += search(document, terms, top);
        }
        return new Result(top.best(), scored);
    }

    /** A term's BM25 in a chunk, the operations in the SQL's order (so that both round alike). */
    private double part(double weight, int tf, int length) {
        return weight * (tf * (k1 + 1)) / (tf + k1 * (1 - b + b * length / averageLength));
    }

    /** One document's chunks into the shared top k; returns how many chunks were scored. */
    private long search(Searched searched, List<Term> terms, TopK top) {
        KeywordPostings document = searched.document();
        List<Cursor> cursors = cursors(searched, terms);
        int n = cursors.size();
        double[] boundsUpTo = new double[n]; // boundsUpTo[i]: the bounds of cursors 0..i together
        for (int i = 0; i < n; i++) {
            boundsUpTo[i] = cursors.get(i).bound + (i > 0 ? boundsUpTo[i - 1] : 0);
        }
        double[] parts = new double[terms.size()];
        int firstEssential = essential(boundsUpTo, top.threshold());
        long scored = 0;
        while (firstEssential < n) {
            int chunk = Integer.MAX_VALUE;
            for (int i = firstEssential; i < n; i++) {
                chunk = Math.min(chunk, cursors.get(i).chunk());
            }
            if (chunk == Integer.MAX_VALUE) {
                break;
            }
            if (score(document.termCount(chunk), chunk, cursors, firstEssential, boundsUpTo, parts, top.threshold())) {
                scored++;
                double score = 0;
                for (double part : parts) { // in the terms' order, whichever cursors found them
                    score += part;
                }
                if (top.offer(new Ranked(document, chunk, document.chunkId(chunk), score))) {
                    firstEssential = essential(boundsUpTo, top.threshold());
                }
            }
        }
        return scored;
    }

    /** A cursor for each term the document holds, the lowest bound first. */
    private List<Cursor> cursors(Searched searched, List<Term> terms) {
        List<Cursor> cursors = new ArrayList<>();
        for (int i = 0; i < terms.size(); i++) {
            KeywordPostings.Term postings = searched.postings()[i];
            if (postings != null) {
                double bound = part(terms.get(i).weight(), postings.maxTf(), postings.minLength()) * SLACK;
                cursors.add(new Cursor(i, terms.get(i).weight(), postings.postings(), bound));
            }
        }
        cursors.sort(Comparator.comparingDouble(c -> c.bound));
        return cursors;
    }

    /**
     * Fills each term's part of the chunk's score: the essential cursors at the chunk move past it,
     * the others are looked up from the highest bound down until what they could still add cannot
     * lift the chunk to the threshold. False when the chunk was given up that way.
     */
    private boolean score(
            int length,
            int chunk,
            List<Cursor> cursors,
            int firstEssential,
            double[] boundsUpTo,
            double[] parts,
            double threshold) {
        Arrays.fill(parts, 0);
        double sum = 0;
        for (int i = firstEssential; i < cursors.size(); i++) {
            Cursor cursor = cursors.get(i);
            if (cursor.chunk() == chunk) {
                parts[cursor.term] = part(cursor.weight, cursor.tf(), length);
                sum += parts[cursor.term];
                cursor.next();
            }
        }
        for (int i = firstEssential - 1; i >= 0; i--) {
            if (sum + boundsUpTo[i] < threshold) {
                return false;
            }
            Cursor cursor = cursors.get(i);
            if (cursor.advanceTo(chunk)) {
                parts[cursor.term] = part(cursor.weight, cursor.tf(), length);
                sum += parts[cursor.term];
            }
        }
        return true;
    }

    /** The first cursor that can still propose candidates: those before it cannot reach the threshold together. */
    private static int essential(double[] boundsUpTo, double threshold) {
        int first = 0;
        while (first < boundsUpTo.length && boundsUpTo[first] < threshold) {
            first++;
        }
        return first;
    }

    /** A position in one term's postings. */
    private static final class Cursor {

        /** The term's place in the query, its weight, and the most it can add to a chunk's score. */
        final int term;

        final double weight;
        final double bound;
        private final int[] postings;
        private int position;

        Cursor(int term, double weight, int[] postings, double bound) {
            this.term = term;
            this.weight = weight;
            this.postings = postings;
            this.bound = bound;
        }

        /** The chunk at the cursor, {@code Integer.MAX_VALUE} past the end. */
        int chunk() {
            return position < postings.length ? KeywordPostings.chunkOf(postings[position]) : Integer.MAX_VALUE;
        }

        int tf() {
            return KeywordPostings.tfOf(postings[position]);
        }

        void next() {
            position++;
        }

        /** Moves to the first posting at or after the chunk; true when the chunk itself is there. */
        boolean advanceTo(int chunk) {
            if (chunk() >= chunk) {
                return chunk() == chunk;
            }
            int found = Arrays.binarySearch(postings, position, postings.length, KeywordPostings.firstPostingOf(chunk));
            position = found >= 0 ? found : -found - 1;
            return chunk() == chunk;
        }
    }

    /** The k best so far, the worst on top of the heap. */
    private static final class TopK {

        private final int k;
        private final PriorityQueue<Ranked> heap;

        TopK(int k) {
            this.k = k;
            this.heap = new PriorityQueue<>(Math.max(1, k), BEST_FIRST.reversed());
        }

        /**
         * What a chunk's score must reach to be kept: the k-th score once k are held (reaching it
         * exactly can still win on the chunk id), nothing before.
         */
        double threshold() {
            return heap.size() < k ? Double.NEGATIVE_INFINITY : heap.peek().score();
        }

        /** Keeps the chunk if it is among the k best; true when the threshold may have moved. */
        boolean offer(Ranked ranked) {
            if (heap.size() < k) {
                heap.add(ranked);
                return heap.size() == k;
            }
            if (BEST_FIRST.compare(ranked, heap.peek()) < 0) {
                heap.poll();
                heap.add(ranked);
                return true;
            }
            return false;
        }

        List<Ranked> best() {
            List<Ranked> best = new ArrayList<>(heap);
            best.sort(BEST_FIRST);
            return best;
        }
    }
}
