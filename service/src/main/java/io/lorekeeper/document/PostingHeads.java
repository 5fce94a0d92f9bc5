package io.lorekeeper.document;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The first postings of each query term in impact order ({@code keyword_posting}, V20): the
 * candidates of a BM25 search whose cost does not grow with the corpus, and the bound that says
 * when they are enough. A chunk none of the heads holds scores at most {@link #bound}: for each
 * term whose head was cut, its IDF times the BM25 factor of the last posting read (every unread
 * one has a smaller impact). When the k-th best candidate scores above that, no unread chunk can
 * enter the top k and the candidates' ranking is the exact BM25 ranking (Fagin's threshold
 * algorithm with the random accesses done by rescoring).
 */
final class PostingHeads {

    /** The average chunk length (lexemes) the stored impacts assume; see V20's {@code lk_impact}. */
    static final double IMPACT_AVERAGE_LENGTH = 128;

    /**
     * Stored impacts are float4: an unread posting may exceed the last read one's rounded value by
     * a float's relative precision, so the bound is widened by more than that.
     */
    private static final double ROUNDING = 1 + 1e-6;

    private final List<Long> candidates;
    private final double bound;

    private PostingHeads(List<Long> candidates, double bound) {
        this.candidates = candidates;
        this.bound = bound;
    }

    /**
     * Reads up to {@code depth} postings of each term, best impact first, among the given
     * documents of one tenant.
     *
     * @param averageLength the searched documents' average chunk length, which BM25 normalises by
     */
    static PostingHeads read(
            JdbcClient jdbc, UUID tenant, UUID[] ids, List<KeywordTerm> terms, int depth, double averageLength) {
        String[] lexemes = terms.stream().map(KeywordTerm::lexeme).toArray(String[]::new);
        List<Posting> postings = jdbc.sql("""
                        SELECT t.ord, p.chunk_id, p.impact
                        FROM unnest(CAST(:lexemes AS text[])) WITH ORDINALITY AS t(lexeme, ord)
                        CROSS JOIN LATERAL (SELECT chunk_id, impact FROM keyword_posting p
                            WHERE p.tenant_id = :tenant AND p.lexeme = t.lexeme AND p.document_id = ANY(:ids)
                            ORDER BY p.impact DESC LIMIT :depth) p""")
                .param("lexemes", lexemes)
                .param("tenant", tenant)
                .param("ids", ids)
                .param("depth", depth)
                .query((rs, n) -> new Posting(rs.getInt("ord") - 1, rs.getLong("chunk_id"), rs.getFloat("impact")))
                .list();
        int[] read = new int[terms.size()];
        double[] last = new double[terms.size()];
        Set<Long> chunks = new LinkedHashSet<>();
        for (Posting posting : postings) {
            read[posting.term()]++;
            last[posting.term()] = posting.impact();
            chunks.add(posting.chunk());
        }
        // An impact assumes IMPACT_AVERAGE_LENGTH; at a longer real average the same posting scores
        // up to (real / assumed) times more, at a shorter one never more (V20's formula).
        double lengthFactor = Math.max(1, averageLength / IMPACT_AVERAGE_LENGTH);
        double bound = 0;
        for (int t = 0; t < terms.size(); t++) {
            if (read[t] == depth) {
                KeywordTerm term = terms.get(t);
                bound += term.idf() * term.weight() * (KeywordSearch.K1 + 1) * last[t] * lengthFactor * ROUNDING;
            }
        }
        return new PostingHeads(new ArrayList<>(chunks), bound);
    }

    List<Long> candidates() {
        return candidates;
    }

    /** The most a chunk outside {@link #candidates()} can score; 0 when every posting was read. */
    double bound() {
        return bound;
    }

    /** Whether these ranked candidates (best first, rescored with BM25) are the exact top k. */
    boolean settle(List<ChunkHit> ranked, int k) {
        if (bound == 0) {
            return true;
        }
        // strictly above: at a tie an unread chunk could come first by id
        return ranked.size() >= k && ranked.get(k - 1).score() > bound;
    }

    private record Posting(int term, long chunk, float impact) {}
}
