package io.lorekeeper.retrieval;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;

import org.springframework.stereotype.Service;

import io.lorekeeper.document.search.ChunkIndex;
import io.lorekeeper.document.search.PageText;
import io.lorekeeper.document.search.SearchHit;
import io.lorekeeper.memory.Embeddings;
import io.lorekeeper.memory.Memos;
import io.micrometer.context.ContextExecutorService;
import io.micrometer.context.ContextSnapshotFactory;
import io.micrometer.observation.ObservationRegistry;

/**
 * The search tools strategies call. Callers pass document ids they have already checked belong
 * to the asking tenant (see {@link Documents#requireReady}).
 */
@Service
public class Retriever {

    private final ChunkIndex chunks;
    private final Memos memos;
    private final Embeddings embeddings;
    private final DeepSearch deep;
    private final Reranking reranking;
    private final TermProximity proximity;
    /** The keyword half of a hybrid search; the caller's observation goes with it, so its span has the same parent. */
    private final Executor parallel;

    private final ObservationRegistry observations;
    /** A question's, for a model rerank on its budget; null for the shared instance. */
    private final RerankScope scope;

    @org.springframework.beans.factory.annotation.Autowired
    Retriever(
            ChunkIndex chunks,
            Memos memos,
            Embeddings embeddings,
            DeepSearch deep,
            Reranking reranking,
            TermProximity proximity,
            ObservationRegistry observations) {
        this.observations = observations;
        this.chunks = chunks;
        this.reranking = reranking;
        this.proximity = proximity;
        this.memos = memos;
        this.deep = deep;
        this.embeddings = embeddings;
        this.scope = null;
        this.parallel = ContextExecutorService.wrap(
                Executors.newVirtualThreadPerTaskExecutor(),
                ContextSnapshotFactory.builder().build());
    }

    private Retriever(Retriever shared, RerankScope scope) {
        this.observations = shared.observations;
        this.chunks = shared.chunks;
        this.reranking = shared.reranking;
        this.proximity = shared.proximity;
        this.memos = shared.memos;
        this.deep = shared.deep;
        this.embeddings = shared.embeddings;
        this.scope = scope;
        this.parallel = shared.parallel;
    }

    /**
     * This retriever for one question: where the LLM reranks (see {@link RerankSettings#llm}), its
     * searches are reranked in the question's session and recorded by {@code scope}.
     */
    public Retriever within(RerankScope scope) {
        return new Retriever(this, scope);
    }

    public List<SearchHit> search(List<UUID> documentIds, String query, SearchMode mode, int k) {
        return switch (mode) {
            case VECTOR -> vector(documentIds, query, k);
            case KEYWORD -> keyword(documentIds, query, k);
            case HYBRID -> hybrid(documentIds, query, k);
            case DEEP -> deep(documentIds, query, k);
        };
    }

    public List<SearchHit> vector(List<UUID> documentIds, String query, int k) {
        return SearchObservation.observe(
                observations,
                SearchMode.VECTOR.wireName(),
                () -> reranking.top(query, k, n -> vectorOnly(documentIds, query, n), scope));
    }

    public List<SearchHit> keyword(List<UUID> documentIds, String query, int k) {
        return SearchObservation.observe(
                observations,
                SearchMode.KEYWORD.wireName(),
                () -> reranking.top(query, k, n -> keywordOnly(documentIds, query, n), scope));
    }

    private List<SearchHit> vectorOnly(List<UUID> documentIds, String query, int k) {
        return chunks.nearest(documentIds, embeddings.query(query), k);
    }

    private List<SearchHit> keywordOnly(List<UUID> documentIds, String query, int k) {
        return chunks.keyword(documentIds, query, k);
    }

    /**
     * Vector and keyword rankings, each three times deeper than k, fused by reciprocal rank, a
     * conversation's turns by the speaker the query names raised ({@link SpeakerFocus}). The two
     * searches run concurrently (each on its own connection), so hybrid costs about the slower of
     * the two rather than their sum.
     */
    public List<SearchHit> hybrid(List<UUID> documentIds, String query, int k) {
        return hybridRankings(documentIds, query, k).fused();
    }

    /**
     * A {@link #hybrid} search with the two rankings it fused: a caller that also wants what only one
     * retriever ranks well reads them here instead of searching again.
     */
    public Hybrid hybridRankings(List<UUID> documentIds, String query, int k) {
        return SearchObservation.observe(observations, SearchMode.HYBRID.wireName(), () -> fuse(documentIds, query, k));
    }

    private Hybrid fuse(List<UUID> documentIds, String query, int k) {
        int depth = Math.max(30, 3 * k);
        CompletableFuture<List<SearchHit>> byKeyword =
                CompletableFuture.supplyAsync(() -> keywordOnly(documentIds, query, depth), parallel);
        List<SearchHit> byVector = vectorOnly(documentIds, query, depth);
        List<SearchHit> keywordRanking = byKeyword.join();
        List<SearchHit> fused = proximity.reorder(query, RankFusion.fuse(List.of(byVector, keywordRanking), depth));
        return new Hybrid(
                SpeakerFocus.apply(reranking.reorder(query, fused, scope), query, k), keywordRanking, byVector);
    }

    /**
     * The k fused hits of a hybrid search, and the keyword and vector rankings behind them, best first and
     * 3k deep (30 at least). Their first n are what {@link #keyword} finds for n up to that, and what
     * {@link #vector} finds up to the index's approximation (this probe is the wider one).
     */
    public record Hybrid(List<SearchHit> fused, List<SearchHit> byKeyword, List<SearchHit> byVector) {}

    /**
     * Hybrid search, then a second retrieval from its best hits, fused with it: for questions whose
     * evidence sits in several places. About twice the cost of {@link #hybrid}. See {@link DeepSearch}.
     */
    public List<SearchHit> deep(List<UUID> documentIds, String query, int k) {
        return SearchObservation.observe(
                observations,
                SearchMode.DEEP.wireName(),
                () -> reranking.top(
                        query, k, n -> proximity.reorder(query, deep.search(documentIds, query, n)), scope));
    }

    /** The chunks of a document with ordinals in {@code [from, to]}, in order. */
    public List<SearchHit> chunks(UUID documentId, int from, int to) {
        return chunks.chunks(documentId, from, to);
    }

    /** Zoom-out: the chunks within {@code window} ordinals of a chunk, in document order (the chunk included). */
    public List<SearchHit> neighbours(UUID documentId, int chunkOrdinal, int window) {
        return chunks(documentId, chunkOrdinal - window, chunkOrdinal + window);
    }

    /**
     * Zoom-out that stays inside the chunk's page: for a conversation, the turns of the same session
     * (a window that ran into the next session would pair one day's words with another day's date).
     * Empty when the document has no such chunk.
     */
    public List<SearchHit> neighboursInPage(UUID documentId, int chunkOrdinal, int window) {
        return chunks.chunksInPage(documentId, chunkOrdinal, window);
    }

    public Optional<PageText> page(UUID documentId, int ordinal) {
        return chunks.page(documentId, ordinal);
    }

    /**
     * The header line of a conversation page ({@code [Session 3, 7:55 pm on 9 June, 2023]}) with
     * its span: turns say "yesterday", only the header says which day that was. Empty for pages of
     * plain texts.
     */
    public Optional<SessionHeader> sessionHeader(UUID documentId, int pageOrdinal) {
        return page(documentId, pageOrdinal)
                .filter(page -> page.sessionId() != null && page.text().startsWith("[Session "))
                .map(page -> {
                    String line = page.text().substring(0, page.text().indexOf(']') + 1);
                    return new SessionHeader(documentId, page.start(), page.start() + line.length(), line);
                });
    }

    public record SessionHeader(UUID documentId, int start, int end, String text) {}

    /** A GAM memo: the memorizer's note about one page, with the page's span. */
    public record MemoText(UUID documentId, int pageOrdinal, int start, int end, String text) {}

    /** Every memo of the documents, in document and page order; empty when the memos stage has not run. */
    public List<MemoText> memos(List<UUID> documentIds) {
        return memos.of(documentIds).stream()
                .map(m -> new MemoText(m.documentId(), m.pageOrdinal(), m.start(), m.end(), m.text()))
                .toList();
    }

    /** A memo found by similarity to a query: the page it is about, and the cosine similarity. */
    public record MemoHit(UUID documentId, int pageOrdinal, double score) {}

    /**
     * The memos most similar to the query (cosine over their embeddings), best first: pages found by
     * what the memorizer wrote about them rather than by their chunks. An exact scan of the named
     * documents' memos (a few hundred for a novel), so a filter never leaves it short of k. Memos never
     * embedded are skipped.
     */
    public List<MemoHit> memoVector(List<UUID> documentIds, String query, int k) {
        return SearchObservation.observe(
                observations,
                "memo",
                () -> memos.nearest(documentIds, query, k).stream()
                        .map(m -> new MemoHit(m.documentId(), m.pageOrdinal(), m.score()))
                        .toList());
    }

    public int pageCount(UUID documentId) {
        return chunks.pageCount(documentId);
    }
}
