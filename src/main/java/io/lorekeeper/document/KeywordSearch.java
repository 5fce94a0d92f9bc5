package io.lorekeeper.document;

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
 * {@code ts_rank} this is a real BM25 with corpus IDF over exactly the documents searched, and
 * unlike an in-memory Lucene index it is the same on every replica.
 *
 * <p>Only the query's lexemes are unnested from each candidate's vector (marked with weight A by
 * {@code setweight}, kept by {@code ts_filter}) rather than all of its ~150: five times faster on a
 * million stored tokens, where unnesting every lexeme of every candidate dominated the query.
 *
 * <p>Terms are ORed (websearch_to_tsquery would AND them and long questions would match nothing).
 * To keep the candidate set bounded on large corpora, the most frequent query terms still score
 * but no longer select candidates once the rarer ones already select enough.
 */
@Component
class KeywordSearch {

    static final double K1 = 0.9;
    static final double B = 0.4;
    private static final int CANDIDATE_BUDGET = 4000;

    private final JdbcClient jdbc;
    private final int candidateBudget;

    /** On the search database (a read replica when one is configured). */
    @Autowired
    KeywordSearch(SearchDatabase database) {
        this(database.jdbc(), CANDIDATE_BUDGET);
    }

    /** @param candidateBudget how many chunks the selecting terms may match together (tests use a small one) */
    KeywordSearch(JdbcClient jdbc, int candidateBudget) {
        this.jdbc = jdbc;
        this.candidateBudget = candidateBudget;
    }

    record Term(String lexeme, long df, double idf) {
    }

    List<ChunkHit> search(List<UUID> documentIds, String query, int k) {
        UUID[] ids = documentIds.toArray(UUID[]::new);
        CorpusStats stats = jdbc.sql("SELECT coalesce(sum(chunk_count), 0) AS n, coalesce(sum(term_total), 0) AS terms FROM document WHERE id = ANY(?)")
                .param(ids).query((rs, i) -> new CorpusStats(rs.getLong("n"), rs.getLong("terms"))).single();
        if (stats.chunks() == 0) {
            return List.of();
        }
        List<Term> terms = terms(ids, query, stats.chunks());
        if (terms.isEmpty()) {
            return List.of();
        }
        String[] lexemes = terms.stream().map(Term::lexeme).toArray(String[]::new);
        double[] idfs = terms.stream().mapToDouble(Term::idf).toArray();
        return jdbc.sql("SELECT " + ChunkRows.COLUMNS + """
                        , sum(q.idf * (t.tf * (:k1 + 1)) / (t.tf + :k1 * (1 - :b + :b * c.term_count / :avgdl))) AS score
                        FROM chunk c
                        CROSS JOIN LATERAL (SELECT u.lexeme, coalesce(array_length(u.positions, 1), 1) AS tf
                            FROM unnest(ts_filter(setweight(c.tsv, 'A', CAST(:lexemes AS text[])), '{a}')) u) t
                        JOIN unnest(CAST(:lexemes AS text[]), CAST(:idfs AS float8[])) AS q(lexeme, idf) ON q.lexeme = t.lexeme
                        WHERE c.document_id = ANY(:ids) AND c.tsv @@ CAST(:selector AS tsquery)
                        GROUP BY c.id
                        ORDER BY score DESC, c.id
                        LIMIT :k""")
                .param("k1", K1).param("b", B).param("avgdl", stats.averageLength())
                .param("lexemes", lexemes).param("idfs", idfs).param("ids", ids)
                .param("selector", selector(terms)).param("k", k)
                .query((rs, n) -> ChunkRows.hit(rs, rs.getDouble("score")))
                .list();
    }

    /**
     * The query's distinct lexemes with their document frequency in the searched chunks, summed from
     * the per-document counts kept with the chunks ({@code document_lexeme}, recomputed whenever a document is segmented).
     */
    List<Term> terms(UUID[] ids, String query, long chunkCount) {
        return jdbc.sql("""
                        SELECT q.lexeme, (SELECT coalesce(sum(l.df), 0) FROM document_lexeme l WHERE l.lexeme = q.lexeme AND l.document_id = ANY(?)) AS df
                        FROM (SELECT DISTINCT u.lexeme FROM unnest(to_tsvector('english', ?)) u) q""")
                .params(ids, query)
                .query((rs, n) -> {
                    long df = rs.getLong("df");
                    return new Term(rs.getString("lexeme"), df, Math.log(1 + (chunkCount - df + 0.5) / (df + 0.5)));
                })
                .list().stream().filter(t -> t.df() > 0).toList();
    }

    private String selector(List<Term> terms) {
        List<Term> byRarity = new ArrayList<>(terms);
        byRarity.sort(Comparator.comparingLong(Term::df));
        List<String> chosen = new ArrayList<>();
        long candidates = 0;
        for (Term term : byRarity) {
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
