-- GAM page headers reach retrieval (contextual retrieval, seed 004 section 2.2.1): a chunk's
-- context, the header of its page, is indexed for BM25 together with its text (and embedded with
-- it by the memory stages). Spans, quotes and the text shown to models stay the text alone.
-- Measured on the LoCoMo dev conversations, a who-and-when header raised hybrid recall@10 from
-- 0.833 to 0.845 (HeaderRetrievalMeasurementTest). Numbered 7.1 so that it sorts after V7 and
-- before any V8 another change adds.
ALTER TABLE chunk ADD COLUMN context text;
DROP INDEX chunk_tsv_idx;
ALTER TABLE chunk DROP COLUMN tsv, DROP COLUMN term_count;
ALTER TABLE chunk
    ADD COLUMN tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', coalesce(context || E'\n', '') || text)) STORED,
    ADD COLUMN term_count integer GENERATED ALWAYS AS (lk_term_count(to_tsvector('english', coalesce(context || E'\n', '') || text))) STORED;
CREATE INDEX chunk_tsv_idx ON chunk USING gin (tsv);
