-- Evaluations run as db-scheduler jobs (task run-evaluation), so any replica can run one and a
-- dead replica's run is revived elsewhere. Each finished question is kept, so that a revived or
-- retried run resumes instead of asking everything again.
ALTER TABLE evaluation ADD COLUMN started_at timestamptz;

CREATE TABLE evaluation_result (
    evaluation_id uuid NOT NULL REFERENCES evaluation (id) ON DELETE CASCADE,
    item_id       text NOT NULL,
    strategy      text NOT NULL,
    result        jsonb NOT NULL,   -- one ItemResult of the report
    created_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (evaluation_id, item_id, strategy)
);

-- Runs started before this version lived on a thread of the replica that took the request and
-- have no job; nothing would ever finish them. (Their stored request lacks inline items, so they
-- cannot be resumed either: start them again.)
UPDATE evaluation SET status = 'FAILED', finished_at = now(), updated_at = now(),
    error = 'interrupted: started before evaluations ran as jobs; start it again'
WHERE status IN ('QUEUED', 'RUNNING');
