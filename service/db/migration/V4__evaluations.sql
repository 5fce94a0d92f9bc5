-- Evaluation runs started with POST /v1/evaluations: the request, progress, and the report when done.
CREATE TABLE evaluation (
    id          uuid PRIMARY KEY,
    tenant_id   uuid NOT NULL REFERENCES tenant (id) ON DELETE CASCADE,
    status      text NOT NULL,          -- QUEUED, RUNNING, DONE, FAILED
    dataset     text NOT NULL,
    request     jsonb NOT NULL,
    done        integer NOT NULL DEFAULT 0,
    total       integer NOT NULL DEFAULT 0,
    error       text,
    report      jsonb,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz
);
CREATE INDEX evaluation_tenant_idx ON evaluation (tenant_id, created_at DESC);
