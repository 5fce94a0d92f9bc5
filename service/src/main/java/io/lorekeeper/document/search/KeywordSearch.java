package io.lorekeeper.document.search;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import io.lorekeeper.platform.SearchDatabase;

/**
 * Okapi BM25 (k1 = 0.9, b = 0.4, the values GAM uses) computed inside PostgreSQL from the chunks'
 * full-text vectors: the English text-search configuration stems and drops stop words, the GIN
 * index finds candidates, and term frequencies come from the lexeme positions. Unlike
 * {@code ts_rank} this is a real BM25 with corpus IDF over exactly the documents searched. The
 * lexemes are PostgreSQL's whichever path scores them, so the in-memory index below stems and
 * drops stop words exactly as this SQL does.
 *
 * <p>Only the query's lexemes are unnested from each candidate's vector (marked with weight A by
 * {@code setweight}, kept by {@code ts_filter}) rather than all of its ~150: five times faster on a
 * million stored tokens, where unnesting every lexeme of every candidate dominated the query.
 *
 * <p>Terms are ORed (websearch_to_tsquery would AND them and long questions would match nothing).
 * To keep the candidate set bounded on large corpora, the most frequent query terms still score
 * but no longer select candidates once the rarer ones already select enough.
 *
 * <p>Searches are served by the in-memory {@link KeywordIndex} (same scores, exact top k, cost
 * that follows the rarer terms instead of the corpus) unless
 * {@code lorekeeper.search.keyword-index.enabled} is false: the SQL scoring here then runs as it
 * did before, which the benchmark uses as its same-run baseline and the tests as the reference the
 * index must equal. The deep search's feedback lexemes always come from SQL.
 */
@Component
class KeywordSearch {

    static final double K1 = 0.9;
    static final double B = 0.4;
    private static final int CANDIDATE_BUDGET = 4000;

    private final JdbcClient jdbc;
    private final int candidateBudget;
    private final KeywordIndex index;

    /**
     * On the search database (a read replica when one is configured).
     *
     * <p>With {@code lorekeeper.search.keyword-index.enabled} false every search is scored in SQL, as
     * before 2026-11-27 (a deployment that cannot spare the index's memory; see docs/operations.md).
     */
    @Autowired
    KeywordSearch(SearchDatabase database, KeywordIndex index, KeywordSettings settings) {
        this(database.jdbc(), CANDIDATE_BUDGET, settings.keywordIndex().enabled() ? index : null);
    }

    /** Scored in SQL. @param candidateBudget how many chunks the selecting terms may match together (tests use a small one) */
    KeywordSearch(JdbcClient jdbc, int candidateBudget) {
        this(jdbc, candidateBudget, null);
    }

    private KeywordSearch(JdbcClient jdbc, int candidateBudget, KeywordIndex index) {
        this.jdbc = jdbc;
        this.candidateBudget = candidateBudget;
        this.index = index;
    }

    List<SearchHit> search(List<UUID> documentIds, String query, int k) {
        if (index != null) {
            return index.search(documentIds, query, List.of(), k);
        }
        UUID[] ids = documentIds.toArray(UUID[]::new);
        CorpusStats stats = stats(ids);
        if (stats.chunks() == 0) {
            return List.of();
        }
        return score(ids, stats, terms(ids, query, stats.chunks()), k);
    }

    /**
     * BM25 of the query's own terms plus feedback terms (the deep search's second pass): each
     * feedback term scores its BM25 times its weight, and selects candidates like a query term.
     */
    List<SearchHit> search(List<UUID> documentIds, String query, List<KeywordTerm> feedback, int k) {
        if (index != null) {
            return index.search(documentIds, query, feedback, k);
        }
        UUID[] ids = documentIds.toArray(UUID[]::new);
        CorpusStats stats = stats(ids);
        if (stats.chunks() == 0) {
            return List.of();
        }
        List<KeywordTerm> terms = new ArrayList<>(terms(ids, query, stats.chunks()));
        for (KeywordTerm extra : feedback) {
            if (terms.stream().noneMatch(t -> t.lexeme().equals(extra.lexeme()))) {
                terms.add(extra);
            }
        }
        return score(ids, stats, terms, k);
    }

    private CorpusStats stats(UUID[] ids) {
        return jdbc.sql(
                        "SELECT coalesce(sum(chunk_count), 0) AS n, coalesce(sum(term_total), 0) AS terms FROM document WHERE id = ANY(?)")
                .param(ids)
                .query((rs, i) -> new CorpusStats(rs.getLong("n"), rs.getLong("terms")))
                .single();
    }

    private List<SearchHit> score(UUID[] ids, CorpusStats stats, List<KeywordTerm> terms, int k) {
        if (terms.isEmpty()) {
            return List.of();
        }
        String[] lexemes = terms.stream().map(KeywordTerm::lexeme).toArray(String[]::new);
        double[] idfs = terms.stream().mapToDouble(t -> t.idf() * t.weight()).toArray();
        String scored = """
                SELECT c.id, sum(q.idf * (t.tf * (:k1 + 1)) / (t.tf + :k1 * (1 - :b + :b * c.term_count / :avgdl))) AS score
                FROM chunk c
                CROSS JOIN LATERAL (SELECT u.lexeme, coalesce(array_length(u.positions, 1), 1) AS tf
                    FROM unnest(ts_filter(setweight(c.tsv, 'A', CAST(:lexemes AS text[])), '{a}')) u) t
                JOIN unnest(CAST(:lexemes AS text[]), CAST(:idfs AS float8[])) AS q(lexeme, idf) ON q.lexeme = t.lexeme
                WHERE c.document_id = ANY(:ids) AND c.tsv @@ CAST(:selector AS tsquery)
                GROUP BY c.id""";
        // The k best ids first, their rows after: grouping every candidate with its text (a thousand
        // or more across 10M stored tokens) copied the texts through the aggregate only to drop them.
        String sql = "WITH scored AS (" + scored + " ORDER BY score DESC, c.id LIMIT :k) SELECT " + ChunkRows.COLUMNS
                + ", s.score FROM scored s JOIN chunk c ON c.id = s.id ORDER BY s.score DESC, c.id";
        return jdbc.sql(sql)
                .param("k1", K1)
                .param("b", B)
                .param("avgdl", stats.averageLength())
                .param("lexemes", lexemes)
                .param("idfs", idfs)
                .param("ids", ids)
                .param("selector", selector(terms))
                .param("k", k)
                .query((rs, n) -> ChunkRows.hit(rs, rs.getDouble("score")))
                .list();
    }

    /**
     * The lexemes of the given chunks (the deep search's feedback chunks) with how many of them hold
     * each and its IDF over the searched documents: the material for feedback terms. Lexemes of the
     * query itself are left out.
     */
    List<FeedbackLexeme> feedbackLexemes(List<UUID> documentIds, List<SearchHit.ChunkKey> chunks, String query) {
        UUID[] ids = documentIds.toArray(UUID[]::new);
        CorpusStats stats = stats(ids);
        if (stats.chunks() == 0 || chunks.isEmpty()) {
            return List.of();
        }
        UUID[] chunkDocuments =
                chunks.stream().map(SearchHit.ChunkKey::documentId).toArray(UUID[]::new);
        Integer[] ordinals = chunks.stream().map(SearchHit.ChunkKey::ordinal).toArray(Integer[]::new);
        return jdbc
                .sql("""
                        SELECT f.lexeme, f.chunks, f.tf,
                               (SELECT coalesce(sum(l.df), 0) FROM document_lexeme l WHERE l.lexeme = f.lexeme AND l.document_id = ANY(:ids)) AS df
                        FROM (SELECT u.lexeme, count(*) AS chunks, sum(coalesce(array_length(u.positions, 1), 1)) AS tf
                              FROM chunk c
                              JOIN unnest(CAST(:docs AS uuid[]), CAST(:ordinals AS int[])) AS k(document_id, ordinal)
                                ON c.document_id = k.document_id AND c.ordinal = k.ordinal
                              CROSS JOIN LATERAL unnest(c.tsv) u
                              WHERE length(u.lexeme) > 2 AND u.lexeme !~ '^[0-9]'
                                AND u.lexeme <> ALL (SELECT lexeme FROM unnest(to_tsvector('english', :query)))
                              GROUP BY u.lexeme) f""")
                .param("ids", ids)
                .param("docs", chunkDocuments)
                .param("ordinals", ordinals)
                .param("query", query)
                .query((rs, n) -> {
                    long df = rs.getLong("df");
                    return new FeedbackLexeme(
                            rs.getString("lexeme"),
                            rs.getInt("chunks"),
                            rs.getInt("tf"),
                            df,
                            Math.log(1 + (stats.chunks() - df + 0.5) / (df + 0.5)),
                            (double) df / stats.chunks());
                })
                .list()
                .stream()
                .filter(l -> l.df() > 0)
                .toList();
    }

    /**
     * The query's distinct lexemes with their document frequency in the searched chunks, summed from
     * the per-document counts kept with the chunks ({@code document_lexeme}, recomputed whenever a document is segmented).
     */
    List<KeywordTerm> terms(UUID[] ids, String query, long chunkCount) {
        return jdbc
                .sql("""
                        SELECT q.lexeme, (SELECT coalesce(sum(l.df), 0) FROM document_lexeme l WHERE l.lexeme = q.lexeme AND l.document_id = ANY(?)) AS df
                        FROM (SELECT DISTINCT u.lexeme FROM unnest(to_tsvector('english', ?)) u) q""")
                .params(ids, query)
                .query((rs, n) -> {
                    long df = rs.getLong("df");
                    return new KeywordTerm(
                            rs.getString("lexeme"), df, Math.log(1 + (chunkCount - df + 0.5) / (df + 0.5)));
                })
                .list()
                .stream()
                .filter(t -> t.df() > 0)
                .toList();
    }

    private String selector(List<KeywordTerm> terms) {
        List<KeywordTerm> byRarity = new ArrayList<>(terms);
        byRarity.sort(Comparator.comparingLong(KeywordTerm::df));
        List<String> chosen = new ArrayList<>();
        long candidates = 0;
        for (KeywordTerm term : byRarity) {
            if (!chosen.isEmpty() && candidates + term.df() > candidateBudget) {
                break;
            }
            chosen.add(quote(term.lexeme()));
            candidates += term.df();
        }
        return String.join(" | ", chosen);
    }

    /** A lexeme as a quoted tsquery operand; quotes and backslashes escaped. */
    private static String quote(String lexeme) {
        return "'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'";
    }

    private record CorpusStats(long chunks, long terms) {
        double averageLength() {
            return Math.max(1.0, (double) terms / chunks);
        }
    }
}
