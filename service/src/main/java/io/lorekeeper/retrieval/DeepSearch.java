package io.lorekeeper.retrieval;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;

import org.springframework.stereotype.Component;

import io.lorekeeper.document.search.ChunkIndex;
import io.lorekeeper.document.search.FeedbackLexeme;
import io.lorekeeper.document.search.KeywordTerm;
import io.lorekeeper.document.search.SearchHit;
import io.lorekeeper.memory.Embeddings;

/**
 * The {@code deep} search mode: a hybrid search, then a second retrieval steered by what the first
 * one found, fused with it. Questions whose evidence sits in several places ("what does Caroline do
 * to relax?") share few words with the second piece of evidence; the first hits do share words with
 * it (a name, a place, the topic), so they bridge to it.
 *
 * <p>The second pass is pseudo-relevance feedback on both rankings: BM25 with the query's terms
 * plus the rarest terms the top first-pass chunks share (weighted below the query's own), and a
 * vector search from the query vector moved towards the mean of those chunks' vectors (Rocchio).
 * The four rankings are fused by reciprocal rank. It costs about two hybrid searches.
 *
 * <p>Unlike the hybrid search, its first vector search embeds the query without the conversation
 * speaker it names ({@link SpeakerFocus#withoutNamedSpeakers}), so the keyword search that finds the
 * speakers runs before it: the name pulls an embedding toward the turns addressed to that person, and
 * this mode is for evidence beyond them.
 */
@Component
class DeepSearch {

    /**
     * @param feedbackChunks how many first-pass hits steer the second pass
     * @param expansionTerms how many feedback terms join the query's in the second BM25 search
     * @param termWeight what a feedback term's BM25 counts for against a query term's
     * @param rocchio how far the second vector query moves towards the feedback chunks (0: not at all)
     * @param secondPassWeight the weight of each second-pass ranking in the fusion (first pass: 1)
     * @param maxShare feedback terms in more than this share of the searched chunks bridge to nothing
     *                 (speakers' names in a conversation, a novel's hero)
     */
    record Settings(
            int feedbackChunks,
            int expansionTerms,
            double termWeight,
            double rocchio,
            double secondPassWeight,
            double maxShare) {

        /** Chosen on LoCoMo dev3 among eight variants (docs/benchmarks.md, 2026-11-25). */
        static final Settings DEFAULT = new Settings(3, 15, 0.3, 0.2, 0.5, 0.2);
    }

    private final ChunkIndex chunks;
    private final Embeddings embeddings;
    private final Executor parallel = Executors.newVirtualThreadPerTaskExecutor();

    DeepSearch(ChunkIndex chunks, Embeddings embeddings) {
        this.chunks = chunks;
        this.embeddings = embeddings;
    }

    List<SearchHit> search(List<UUID> documentIds, String query, int k) {
        return search(documentIds, query, k, Settings.DEFAULT);
    }

    List<SearchHit> search(List<UUID> documentIds, String query, int k, Settings settings) {
        int depth = Math.max(30, 3 * k);
        // the keyword hits' speakers say which names the embedded query leaves out (the hybrid search keeps them)
        List<SearchHit> byKeywordFirst = chunks.keyword(documentIds, query, depth);
        float[] queryVector = embeddings.query(SpeakerFocus.withoutNamedSpeakers(query, byKeywordFirst));
        List<SearchHit> byVector = chunks.nearest(documentIds, queryVector, depth);
        List<SearchHit> first =
                SpeakerFocus.apply(RankFusion.fuse(List.of(byVector, byKeywordFirst), depth), query, depth);
        if (first.isEmpty()) {
            return first;
        }
        List<SearchHit.ChunkKey> feedback = first.stream()
                .limit(settings.feedbackChunks())
                .map(hit -> new SearchHit.ChunkKey(hit.documentId(), hit.chunkOrdinal()))
                .toList();

        CompletableFuture<List<SearchHit>> expanded = CompletableFuture.supplyAsync(
                () -> {
                    List<KeywordTerm> terms = feedbackTerms(documentIds, feedback, query, settings);
                    return terms.isEmpty() ? List.<SearchHit>of() : chunks.keyword(documentIds, query, terms, depth);
                },
                parallel);
        List<SearchHit> moved = settings.rocchio() <= 0
                ? List.of()
                : chunks.nearest(
                        documentIds, rocchio(queryVector, chunks.vectorsOf(feedback), settings.rocchio()), depth);
        double w = settings.secondPassWeight();
        List<SearchHit> fused = RankFusion.fuse(
                List.of(byVector, byKeywordFirst, moved, expanded.join()), new double[] {1, 1, w, w}, depth);
        return SpeakerFocus.apply(fused, query, k);
    }

    /**
     * The feedback chunks' terms that bridge best: in more of those chunks, rarer in the searched
     * documents; the query's own terms and terms too common to bridge left out.
     */
    List<KeywordTerm> feedbackTerms(
            List<UUID> documentIds, List<SearchHit.ChunkKey> feedback, String query, Settings settings) {
        List<FeedbackLexeme> lexemes = new ArrayList<>(chunks.feedbackLexemes(documentIds, feedback, query));
        lexemes.removeIf(l -> l.share() > settings.maxShare());
        lexemes.sort(Comparator.comparingDouble((FeedbackLexeme l) -> l.chunks() * l.idf())
                .reversed()
                .thenComparing(FeedbackLexeme::lexeme));
        return lexemes.stream()
                .limit(settings.expansionTerms())
                .map(l -> new KeywordTerm(l.lexeme(), l.df(), l.idf(), settings.termWeight()))
                .toList();
    }

    /** The query vector moved towards the mean of the feedback vectors by {@code beta}, normalised. */
    static float[] rocchio(float[] query, List<float[]> feedback, double beta) {
        float[] out = new float[query.length];
        double norm = norm(query);
        for (int i = 0; i < out.length; i++) {
            out[i] = (float) (query[i] / norm);
        }
        if (!feedback.isEmpty()) {
            for (float[] v : feedback) {
                double n = norm(v);
                for (int i = 0; i < out.length; i++) {
                    out[i] += (float) (beta * v[i] / n / feedback.size());
                }
            }
        }
        double total = norm(out);
        for (int i = 0; i < out.length; i++) {
            out[i] = (float) (out[i] / total);
        }
        return out;
    }

    private static double norm(float[] v) {
        double sum = 0;
        for (float x : v) {
            sum += x * x;
        }
        return sum == 0 ? 1 : Math.sqrt(sum);
    }
}
