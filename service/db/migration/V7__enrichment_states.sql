-- Two levels of readiness. A document is READY once its retrieval stages (segment, embed, keyword)
-- are done; the LLM-built memories are enrichment stages with a state of their own, whose failure
-- never fails the document: it is retried with backoff (attempts, retry_at) and can be rebuilt on
-- demand. generation changes whenever a stage is reset, so a run that started before the reset
-- cannot mark the newer request done. requested marks an on-demand stage someone asked for.
ALTER TABLE ingestion_stage
    ADD COLUMN kind       text NOT NULL DEFAULT 'retrieval' CHECK (kind IN ('retrieval', 'enrichment')),
    ADD COLUMN attempts   integer NOT NULL DEFAULT 0,
    ADD COLUMN retry_at   timestamptz,
    ADD COLUMN generation integer NOT NULL DEFAULT 0,
    ADD COLUMN requested  boolean NOT NULL DEFAULT false;

UPDATE ingestion_stage SET kind = 'enrichment' WHERE stage IN ('memos', 'page-headers', 'graph');

-- Documents that failed in an enrichment stage under the old model kept everything retrieval needs.
UPDATE document d SET status = 'READY', failure_reason = NULL, updated_at = now()
WHERE d.status = 'FAILED'
  AND NOT EXISTS (SELECT 1 FROM ingestion_stage s
                  WHERE s.document_id = d.id AND s.kind = 'retrieval' AND s.status NOT IN ('DONE', 'SKIPPED'));

-- A question whose strategy needs a memory still being built waits for it; this says which.
ALTER TABLE question
    ADD COLUMN waiting_for jsonb,
    ADD COLUMN degraded    jsonb;
