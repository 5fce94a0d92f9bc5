package io.lorekeeper.document.search;

import java.sql.Array;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

import io.lorekeeper.platform.SearchDatabase;

/**
 * BM25 across many documents from postings held in memory, so that a search's cost follows the
 * rarer query terms rather than the size of the corpus ({@link MaxScore}). The database stays the
 * only truth: each document's postings are read from its chunks' full-text vectors the first time
 * a search needs them and kept under the document's keyword generation, a counter the database
 * bumps whenever the chunks or their indexed context change. Every search reads the generations of
 * the documents it searches (in the statement that also turns the query into lexemes, so no extra
 * round trip), and a replica that holds an older generation reads the document again: replicas
 * never disagree for longer than a search, and a restart only costs the reads.
 *
 * <p>Scores equal {@link KeywordSearch}'s SQL to floating-point rounding, with one difference: the
 * SQL stops letting the most frequent terms select candidates past a budget of 4,000 chunks, while
 * here every chunk holding a query term can be found, so on large corpora this is the exact BM25 top
 * k and the SQL's an approximation of it.
 *
 * <p>Memory: 37 MB of heap for 10M stored tokens (3.3 million postings). Past
 * {@code lorekeeper.search.keyword-index.max-postings} the documents least recently searched are
 * dropped, to be read again when next searched.
 */
@Component
class KeywordIndex {

    private static final Logger log = LoggerFactory.getLogger(KeywordIndex.class);

    private final JdbcClient jdbc;
    private final TransactionTemplate snapshot;
    private final long maxPostings;
    private final Map<UUID, CompletableFuture<KeywordPostings>> documents = new ConcurrentHashMap<>();
    private final AtomicLong heldPostings = new AtomicLong();

    @Autowired
    KeywordIndex(SearchDatabase database, KeywordSettings settings) {
        this(database, settings.keywordIndex().maxPostings());
    }

    KeywordIndex(SearchDatabase database, long maxPostings) {
        this.jdbc = database.jdbc();
        // a document's generation and postings read in one snapshot, so the generation names what was read
        this.snapshot = new TransactionTemplate(database.transaction().getTransactionManager());
        snapshot.setIsolationLevel(TransactionDefinition.ISOLATION_REPEATABLE_READ);
        snapshot.setReadOnly(true);
        this.maxPostings = maxPostings;
    }

    /**
     * The k best chunks of the documents by BM25 over the query's lexemes and the feedback terms
     * (each counting its IDF times its weight, as given), best first.
     */
    List<SearchHit> search(List<UUID> documentIds, String query, List<KeywordTerm> feedback, int k) {
        if (documentIds.isEmpty() || k <= 0) {
            return List.of();
        }
        Scope scope = scope(documentIds, query);
        List<KeywordPostings> searched = new ArrayList<>();
        long chunks = 0;
        long termTotal = 0;
        for (Map.Entry<UUID, Long> document : scope.generations().entrySet()) {
            KeywordPostings postings = postings(document.getKey(), document.getValue());
            if (postings != null) {
                searched.add(postings);
                chunks += postings.chunkCount();
                termTotal += postings.termTotal();
            }
        }
        if (chunks == 0) {
            return List.of();
        }
        List<String> lexemes = lexemes(scope.lexemes(), feedback);
        List<MaxScore.Searched> found = searched.stream()
                .map(postings -> MaxScore.Searched.of(postings, lexemes))
                .toList();
        List<MaxScore.Term> terms = terms(found, lexemes, scope.lexemes().size(), feedback, chunks);
        if (terms.isEmpty()) {
            return List.of();
        }
        double averageLength = Math.max(1.0, (double) termTotal / chunks);
        List<MaxScore.Ranked> ranked = new MaxScore(KeywordSearch.K1, KeywordSearch.B, averageLength)
                .top(found, terms, k)
                .ranked();
        evictPastBudget();
        return rows(ranked);
    }

    /** The query's lexemes, then the feedback terms' that the query does not have. */
    private static List<String> lexemes(List<String> query, List<KeywordTerm> feedback) {
        Set<String> all = new LinkedHashSet<>(query);
        feedback.forEach(term -> all.add(term.lexeme()));
        return List.copyOf(all);
    }

    /**
     * The lexemes as scored: the query's weighted by their IDF over the searched chunks, the feedback
     * terms' by the IDF and weight they come with. Empty when no searched chunk holds any of them. A
     * query lexeme no chunk holds stays in the list (it finds nothing), so that each document's
     * postings, looked up once, stay in the lexemes' order.
     */
    private static List<MaxScore.Term> terms(
            List<MaxScore.Searched> found,
            List<String> lexemes,
            int fromQuery,
            List<KeywordTerm> feedback,
            long chunks) {
        Map<String, Double> feedbackWeights = new HashMap<>();
        feedback.forEach(t -> feedbackWeights.putIfAbsent(t.lexeme(), t.idf() * t.weight()));
        List<MaxScore.Term> terms = new ArrayList<>();
        boolean anywhere = false;
        for (int i = 0; i < lexemes.size(); i++) {
            long df = 0;
            for (MaxScore.Searched document : found) {
                KeywordPostings.Term postings = document.postings()[i];
                df += postings == null ? 0 : postings.size();
            }
            anywhere |= df > 0;
            String lexeme = lexemes.get(i);
            double weight =
                    i < fromQuery ? Math.log(1 + (chunks - df + 0.5) / (df + 0.5)) : feedbackWeights.get(lexeme);
            terms.add(new MaxScore.Term(lexeme, weight));
        }
        return anywhere ? terms : List.of();
    }

    /** The searched documents' keyword generations and the query's lexemes, in one statement. */
    private Scope scope(List<UUID> documentIds, String query) {
        Map<UUID, Long> generations = new HashMap<>();
        List<String> lexemes = new ArrayList<>();
        jdbc.sql("""
                        SELECT d.id, d.keyword_generation,
                               ARRAY(SELECT DISTINCT u.lexeme FROM unnest(to_tsvector('english', :query)) u) AS lexemes
                        FROM document d WHERE d.id = ANY(:ids)""")
                .param("query", query)
                .param("ids", documentIds.toArray(UUID[]::new))
                .query(rs -> {
                    generations.put(rs.getObject("id", UUID.class), rs.getLong("keyword_generation"));
                    if (lexemes.isEmpty()) {
                        lexemes.addAll(List.of((String[]) rs.getArray("lexemes").getArray()));
                    }
                });
        return new Scope(generations, lexemes);
    }

    private record Scope(Map<UUID, Long> generations, List<String> lexemes) {}

    /**
     * The document's postings at the given generation or a later one: held ones, or read now (once,
     * however many searches ask for them at the same moment). Null when the document is gone.
     */
    KeywordPostings postings(UUID documentId, long generation) {
        while (true) {
            CompletableFuture<KeywordPostings> held = documents.get(documentId);
            if (held != null) {
                KeywordPostings postings = join(held);
                if (postings != null && postings.generation() >= generation) {
                    postings.touch();
                    return postings;
                }
                if (documents.remove(documentId, held) && postings != null) {
                    heldPostings.addAndGet(-postings.postingCount());
                }
                continue;
            }
            CompletableFuture<KeywordPostings> reading = new CompletableFuture<>();
            if (documents.putIfAbsent(documentId, reading) != null) {
                continue;
            }
            try {
                long started = System.nanoTime();
                KeywordPostings postings = read(documentId);
                if (postings != null) {
                    log.debug(
                            "Keyword index read document {} (generation {}, {} postings) in {} ms",
                            documentId,
                            postings.generation(),
                            postings.postingCount(),
                            (System.nanoTime() - started) / 1_000_000);
                }
                reading.complete(postings);
                if (postings == null) {
                    documents.remove(documentId, reading);
                } else {
                    heldPostings.addAndGet(postings.postingCount());
                }
                return postings;
            } catch (RuntimeException e) {
                documents.remove(documentId, reading);
                reading.completeExceptionally(e);
                throw e;
            }
        }
    }

    private static KeywordPostings join(CompletableFuture<KeywordPostings> postings) {
        try {
            return postings.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime : e;
        }
    }

    /** Reads a document's postings from its chunks' vectors, with the generation they belong to. */
    private KeywordPostings read(UUID documentId) {
        return snapshot.execute(status -> {
            Long generation = jdbc.sql("SELECT keyword_generation FROM document WHERE id = ?")
                    .param(documentId)
                    .query(Long.class)
                    .optional()
                    .orElse(null);
            if (generation == null) {
                return null;
            }
            List<long[]> chunkRows = jdbc.sql("SELECT id, term_count FROM chunk WHERE document_id = ? ORDER BY ordinal")
                    .param(documentId)
                    .query((rs, n) -> new long[] {rs.getLong(1), rs.getInt(2)})
                    .list();
            long[] chunkIds = new long[chunkRows.size()];
            int[] termCounts = new int[chunkRows.size()];
            for (int i = 0; i < chunkIds.length; i++) {
                chunkIds[i] = chunkRows.get(i)[0];
                termCounts[i] = (int) chunkRows.get(i)[1];
            }
            Map<String, KeywordPostings.Term> terms = new HashMap<>();
            // chunks numbered 0.. in ordinal order, as the arrays above
            jdbc.sql("""
                            WITH c AS (SELECT tsv, term_count, (row_number() OVER (ORDER BY ordinal) - 1)::int AS local
                                       FROM chunk WHERE document_id = ?)
                            SELECT u.lexeme, array_agg(c.local ORDER BY c.local) AS chunks,
                                   array_agg(coalesce(array_length(u.positions, 1), 1) ORDER BY c.local) AS tfs,
                                   max(coalesce(array_length(u.positions, 1), 1)) AS max_tf, min(c.term_count) AS min_length
                            FROM c CROSS JOIN LATERAL unnest(c.tsv) u GROUP BY u.lexeme""").param(documentId).query(rs -> {
                terms.put(
                        // one copy of each word across documents: a third of the index's heap otherwise
                        rs.getString("lexeme").intern(),
                        new KeywordPostings.Term(
                                postings(rs.getArray("chunks"), rs.getArray("tfs")),
                                rs.getInt("max_tf"),
                                rs.getInt("min_length")));
            });
            return new KeywordPostings(documentId, generation, chunkIds, termCounts, terms);
        });
    }

    private static int[] postings(Array chunks, Array tfs) throws SQLException {
        Integer[] chunkNumbers = (Integer[]) chunks.getArray();
        Integer[] frequencies = (Integer[]) tfs.getArray();
        int[] postings = new int[chunkNumbers.length];
        for (int i = 0; i < postings.length; i++) {
            postings[i] = KeywordPostings.posting(chunkNumbers[i], frequencies[i]);
        }
        return postings;
    }

    /** Drops the documents searched longest ago while more postings are held than the budget allows. */
    private void evictPastBudget() {
        if (heldPostings.get() <= maxPostings) {
            return;
        }
        List<Map.Entry<UUID, CompletableFuture<KeywordPostings>>> held = documents.entrySet().stream()
                .filter(e -> e.getValue().isDone()
                        && !e.getValue().isCompletedExceptionally()
                        && e.getValue().getNow(null) != null)
                .sorted(Comparator.comparingLong(e -> e.getValue().join().lastUsed()))
                .toList();
        for (Map.Entry<UUID, CompletableFuture<KeywordPostings>> entry : held) {
            if (heldPostings.get() <= maxPostings) {
                break;
            }
            if (documents.remove(entry.getKey(), entry.getValue())) {
                heldPostings.addAndGet(-entry.getValue().join().postingCount());
                log.debug("Keyword index dropped document {} (postings past the budget)", entry.getKey());
            }
        }
    }

    /** How many postings are held (for tests and the metrics). */
    long heldPostings() {
        return heldPostings.get();
    }

    /** How many documents' postings are held (for the metrics). */
    long heldDocuments() {
        return documents.values().stream()
                .filter(f -> f.isDone() && !f.isCompletedExceptionally() && f.getNow(null) != null)
                .count();
    }

    /** An estimate of the heap the held postings take (for the metrics; see {@link KeywordPostings#estimatedBytes}). */
    long estimatedBytes() {
        return documents.values().stream()
                .filter(f -> f.isDone() && !f.isCompletedExceptionally() && f.getNow(null) != null)
                .mapToLong(f -> f.join().estimatedBytes())
                .sum();
    }

    /** The ranked chunks' rows, in rank order (a chunk deleted in between is left out). */
    private List<SearchHit> rows(List<MaxScore.Ranked> ranked) {
        if (ranked.isEmpty()) {
            return List.of();
        }
        Map<Long, Double> scores = new HashMap<>();
        ranked.forEach(r -> scores.put(r.chunkId(), r.score()));
        Map<Long, SearchHit> byId = new HashMap<>();
        jdbc.sql("SELECT c.id, " + ChunkRows.COLUMNS + " FROM chunk c WHERE c.id = ANY(?)")
                .param(scores.keySet().toArray(Long[]::new))
                .query(rs -> {
                    long id = rs.getLong("id");
                    byId.put(id, ChunkRows.hit(rs, scores.get(id)));
                });
        return ranked.stream()
                .map(r -> byId.get(r.chunkId()))
                .filter(hit -> hit != null)
                .toList();
    }
}
