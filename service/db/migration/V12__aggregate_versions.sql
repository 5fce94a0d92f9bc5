-- Optimistic locking for the aggregates that the JPA entities Question and Evaluation map: every
-- update checks and bumps the version, so two writers that read the same state cannot both
-- change it. Rows written before this version (and rows tests insert directly) start at 0.
ALTER TABLE question ADD COLUMN version bigint NOT NULL DEFAULT 0;
ALTER TABLE evaluation ADD COLUMN version bigint NOT NULL DEFAULT 0;

-- question.status has always been checked; evaluation.status now is too (the entity's enum).
ALTER TABLE evaluation ADD CONSTRAINT evaluation_status_check CHECK (status IN ('QUEUED', 'RUNNING', 'DONE', 'FAILED'));
