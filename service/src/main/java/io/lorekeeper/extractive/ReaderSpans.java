package io.lorekeeper.extractive;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;

import ai.djl.huggingface.tokenizers.jni.CharSpan;
import io.lorekeeper.memory.OnnxPairModel;
import io.lorekeeper.text.ChunkSentences;
import io.lorekeeper.text.Span;

/**
 * Picks the reader's answer out of its logits, as SQuAD readers are decoded: a span starts and ends on
 * word pieces of one passage (never the question's, never a special piece), ends no earlier than it
 * starts, is at most {@code maxPieces} long and scores its start piece's start logit plus its end
 * piece's end logit. The [CLS] piece's start plus end logit is the passage's no-answer score (SQuAD 2.0);
 * the least of them over the passages read is the question's, because one passage that holds the
 * answer is enough. A span touching a heading is never an answer ({@link Headings}). A span is widened
 * to whole words ("Pen" of "Pennock" cites "Pennock"): a citation of half a word reads as a mistake.
 *
 * <p>The probability of the best span is its softmax share among every span of every passage read and
 * the no-answer score, the spans that widen to the same words counted together ("Pen", "nock" and
 * "Pennock" are one answer): the mass the reader puts on this answer against all it could have said.
 */
final class ReaderSpans {

    /** A passage read: its text and where it starts in its document. */
    record Passage(String text, int start) {}

    /**
     * A span the reader could answer with.
     *
     * @param passage the index of its passage among those read
     * @param span    its absolute offsets in the document
     */
    record Found(int passage, Span span, String text, double score) {}

    /**
     * What the reading found.
     *
     * @param best        the best span, or null when no passage has a piece to answer with
     * @param bestPerPassage each passage's best span (null where it has none), in the order read
     * @param noAnswer    the least no-answer score over the passages
     * @param noAnswers   each passage's no-answer score
     * @param probability the best span's softmax share (0 without one)
     * @param noAnswerProbability the no-answer score's softmax share
     * @param headings    spans that outscored the answer but touch a heading line, dropped
     */
    record Choice(
            Found best,
            List<Found> bestPerPassage,
            double noAnswer,
            List<Double> noAnswers,
            double probability,
            double noAnswerProbability,
            List<Found> headings) {

        /** The best span's lead over the no-answer score. */
        double margin() {
            return best == null ? Double.NEGATIVE_INFINITY : best.score() - noAnswer;
        }
    }

    /** Where in a passage the heading lines are: true for a document offset that lies on one. */
    interface HeadingLines {
        IntPredicate of(int passage);
    }

    private ReaderSpans() {}

    static Choice pick(
            List<Passage> passages, List<OnnxPairModel.Reading> readings, int maxPieces, HeadingLines headings) {
        if (passages.isEmpty()) {
            return new Choice(null, List.of(), Double.NaN, List.of(), 0, 0, List.of());
        }
        Tally tally = new Tally();
        for (int p = 0; p < passages.size(); p++) {
            tally.read(p, passages.get(p), readings.get(p), maxPieces, headings.of(p));
        }
        return tally.choice();
    }

    /** What the passages read so far say: each one's best span, and the mass over all their spans. */
    private static final class Tally {
        private final List<Found> perPassage = new ArrayList<>();
        private final List<Double> noAnswers = new ArrayList<>();
        private final List<Found> dropped = new ArrayList<>();
        // log-sum-exp over every span and the no-answer score, kept stable by shifting by the running max
        private final Softmax softmax = new Softmax();
        private final Map<Span, Double> byWords = new HashMap<>(); // log-sum-exp of the spans widening to these words
        private Found best;
        private double noAnswer = Double.POSITIVE_INFINITY;

        void read(int p, Passage passage, OnnxPairModel.Reading reading, int maxPieces, IntPredicate onHeading) {
            float[] start = reading.output(ReaderModel.START);
            float[] end = reading.output(ReaderModel.END);
            CharSpan[] pieces = reading.secondSpans();
            noAnswers.add((double) start[0] + end[0]);
            noAnswer = Math.min(noAnswer, start[0] + end[0]);
            boolean[] heading = new boolean[pieces.length];
            int[] from = new int[pieces.length];
            int[] to = new int[pieces.length];
            for (int i = 0; i < pieces.length; i++) {
                if (pieces[i] != null) {
                    heading[i] = onHeading.test(passage.start() + pieces[i].getStart());
                    from[i] = wordStart(passage.text(), pieces[i].getStart());
                    to[i] = wordEnd(passage.text(), pieces[i].getEnd());
                }
            }
            Found own = null;
            Found ownHeading = null;
            for (int s = 0; s < pieces.length; s++) {
                if (pieces[s] == null) {
                    continue;
                }
                boolean touchesHeading = false;
                for (int e = s; e < pieces.length && e < s + maxPieces && pieces[e] != null; e++) {
                    touchesHeading |= heading[e];
                    double score = start[s] + end[e];
                    if (touchesHeading) {
                        if (ownHeading == null || score > ownHeading.score()) {
                            ownHeading = found(p, passage, from[s], to[e], score);
                        }
                        continue;
                    }
                    softmax.add(score);
                    byWords.merge(
                            new Span(passage.start() + from[s], passage.start() + to[e]), score, ReaderSpans::logSum);
                    if (own == null || score > own.score()) {
                        own = found(p, passage, from[s], to[e], score);
                    }
                }
            }
            perPassage.add(own);
            if (ownHeading != null && (own == null || ownHeading.score() > own.score())) {
                dropped.add(ownHeading);
            }
            if (own != null && (best == null || own.score() > best.score())) {
                best = own;
            }
        }

        Choice choice() {
            softmax.add(noAnswer);
            Found answer = best;
            List<Found> outscoring = dropped.stream()
                    .filter(h -> answer == null || h.score() > answer.score())
                    .toList();
            return new Choice(
                    best,
                    perPassage,
                    noAnswer,
                    noAnswers,
                    best == null ? 0 : softmax.share(byWords.get(best.span())),
                    softmax.share(noAnswer),
                    outscoring);
        }
    }

    private static Found found(int p, Passage passage, int from, int to, double score) {
        Span local = new Span(from, to);
        return new Found(
                p,
                new Span(passage.start() + local.start(), passage.start() + local.end()),
                local.of(passage.text()),
                score);
    }

    /** Where the word holding {@code at} starts. */
    private static int wordStart(String text, int at) {
        while (at > 0 && at <= text.length() && Character.isLetterOrDigit(text.charAt(at - 1))) {
            at--;
        }
        return at;
    }

    /** Where the word holding the character before {@code at} ends. */
    private static int wordEnd(String text, int at) {
        while (at > 0 && at < text.length() && Character.isLetterOrDigit(text.charAt(at))) {
            at++;
        }
        return at;
    }

    /** {@code log(e^a + e^b)}, without overflow. */
    private static double logSum(double a, double b) {
        double max = Math.max(a, b);
        return max + Math.log1p(Math.exp(-Math.abs(a - b)));
    }

    /**
     * The headings of {@code text}, a stretch of a document starting at {@code textStart} (a chunk): the
     * sentences {@link CandidateSentences} leaves out as headings, as absolute offsets.
     */
    static List<Span> headings(String text, int textStart) {
        List<Span> out = new ArrayList<>();
        for (Span local : ChunkSentences.of(text, false)) {
            if (Headings.isHeading(text, local)) {
                out.add(new Span(textStart + local.start(), textStart + local.end()));
            }
        }
        return out;
    }

    /** Whether {@code at} lies inside one of {@code headings}. */
    static boolean inside(List<Span> headings, int at) {
        return headings.stream().anyMatch(h -> h.start() <= at && at < h.end());
    }

    /** A softmax's denominator, summed as scores arrive without overflowing. */
    private static final class Softmax {
        private double max = Double.NEGATIVE_INFINITY;
        private double sum;

        void add(double score) {
            if (score > max) {
                sum = sum * Math.exp(max - score) + 1;
                max = score;
            } else {
                sum += Math.exp(score - max);
            }
        }

        double share(double score) {
            return Math.exp(score - max) / sum;
        }
    }
}
