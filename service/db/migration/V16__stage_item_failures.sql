-- An LLM-built memory degrades per item: an item (a page's memo, a unit's triples, a summary, a graph
-- block) whose reply stayed unusable after the gateway's repair is left without its output, and the
-- stage still ends DONE, with the gap counted here. failed counts the items of the stage's latest run
-- left without output; failures keeps the first few of them ("item: reason"). A later run (a reindex
-- without stages, or appended sessions) retries those gaps only.
ALTER TABLE ingestion_stage
    ADD COLUMN failed   integer NOT NULL DEFAULT 0,
    ADD COLUMN failures text[]  NOT NULL DEFAULT '{}';

-- The shared MindGraph graph skips a block whose builder reply stayed unusable and goes on with the
-- next; the skipped blocks ([index, start, end] each) are tried again by the graph stage's next run.
ALTER TABLE graph
    ADD COLUMN skipped_blocks jsonb NOT NULL DEFAULT '[]';
