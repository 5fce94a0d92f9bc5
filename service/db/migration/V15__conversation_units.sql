-- Finer retrieval units for conversations (issue #19). A conversation is now cut into units of about
-- one turn, so that a fixed context budget holds turns from more places; two columns keep what the
-- larger chunks used to give:
--   lead      the unit before this one in the same session (a question whose answer this turn is),
--             indexed for keyword search with the unit but neither embedded nor shown;
--   speakers  who speaks in the unit, for searches that favour the speaker a question names.
-- Chunks stored before this version keep their segmentation and get no lead (so their keyword
-- vectors and the per-document lexeme counts stay as they are); their speakers are filled in below.
ALTER TABLE chunk ADD COLUMN lead text, ADD COLUMN speakers text[] NOT NULL DEFAULT '{}';
DROP INDEX chunk_tsv_idx;
ALTER TABLE chunk DROP COLUMN tsv, DROP COLUMN term_count;
ALTER TABLE chunk
    ADD COLUMN tsv tsvector GENERATED ALWAYS AS (
        to_tsvector('english', coalesce(context || E'\n', '') || coalesce(lead || E'\n', '') || text)) STORED,
    ADD COLUMN term_count integer GENERATED ALWAYS AS (
        lk_term_count(to_tsvector('english', coalesce(context || E'\n', '') || coalesce(lead || E'\n', '') || text))) STORED;
CREATE INDEX chunk_tsv_idx ON chunk USING gin (tsv);

UPDATE chunk c
SET speakers = ARRAY(SELECT DISTINCT t.speaker FROM conversation_turn t
                     WHERE t.document_id = c.document_id AND t.turn_id = ANY (c.turn_ids) ORDER BY 1)
WHERE cardinality(c.turn_ids) > 0;
