-- Impact-ordered postings for BM25 across many documents. A keyword search over all of a tenant's
-- documents used to score every chunk its rarer terms selected (up to 4,000 candidates at 10M
-- stored tokens, each one's tsvector read and filtered), so its cost grew with the corpus. With
-- one row per (chunk, lexeme) ordered by the lexeme's length-normalised term frequency, a search
-- reads the first few hundred postings of each query term from this index and rescoring those
-- candidates gives the exact BM25 top-k whenever the best unread posting of each term cannot
-- reach it (the threshold algorithm; KeywordSearch checks it and falls back otherwise).
--
-- impact = tf / (tf + k1 * (1 - b + b * term_count / 128)), with k1 = 0.9 and b = 0.4 as in
-- KeywordSearch: BM25's term-frequency factor (without k1 + 1) at a fixed average length of 128
-- lexemes, since the real average depends on which documents are searched. Recomputed whole for a
-- document whenever its chunks change, beside document_lexeme.

CREATE FUNCTION lk_impact(tf integer, term_count integer) RETURNS real
    LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
AS $$ SELECT (tf / (tf + 0.9 * (1 - 0.4 + 0.4 * term_count / 128.0)))::real $$;

CREATE TABLE keyword_posting (
    tenant_id   uuid    NOT NULL,
    lexeme      text    NOT NULL,
    impact      real    NOT NULL,
    document_id uuid    NOT NULL REFERENCES document (id) ON DELETE CASCADE,
    chunk_id    bigint  NOT NULL
);

INSERT INTO keyword_posting (tenant_id, lexeme, impact, document_id, chunk_id)
SELECT d.tenant_id, u.lexeme,
       lk_impact(coalesce(array_length(u.positions, 1), 1), c.term_count),
       c.document_id, c.id
FROM chunk c
JOIN document d ON d.id = c.document_id
CROSS JOIN LATERAL unnest(c.tsv) u;

CREATE INDEX keyword_posting_impact_idx ON keyword_posting (tenant_id, lexeme, impact DESC) INCLUDE (document_id, chunk_id);
CREATE INDEX keyword_posting_document_idx ON keyword_posting (document_id);
