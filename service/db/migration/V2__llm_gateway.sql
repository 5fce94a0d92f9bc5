-- Every model call, for usage reports and per-question cost figures.
CREATE TABLE llm_call (
    id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tenant_id         uuid,
    question_id       uuid,
    document_id       uuid,
    role              text NOT NULL,
    profile           text NOT NULL,
    model             text NOT NULL,
    template          text NOT NULL,
    prompt_tokens     bigint NOT NULL DEFAULT 0,
    completion_tokens bigint NOT NULL DEFAULT 0,
    latency_ms        bigint NOT NULL DEFAULT 0,
    cache_hit         boolean NOT NULL DEFAULT false,
    outcome           text NOT NULL,
    error             text,
    at                timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX llm_call_tenant_at_idx ON llm_call (tenant_id, at);
CREATE INDEX llm_call_question_idx ON llm_call (question_id) WHERE question_id IS NOT NULL;
CREATE INDEX llm_call_document_idx ON llm_call (document_id) WHERE document_id IS NOT NULL;

-- Replies of deterministic (temperature 0) calls, keyed by a hash of model, messages and parameters.
CREATE TABLE llm_cache (
    key               text PRIMARY KEY,
    reply             text NOT NULL,
    prompt_tokens     bigint NOT NULL,
    completion_tokens bigint NOT NULL,
    created_at        timestamptz NOT NULL DEFAULT now()
);

-- GAM memorizer: one memo per page, written with the earlier memos as context.
CREATE TABLE memo (
    document_id  uuid NOT NULL REFERENCES document (id) ON DELETE CASCADE,
    page_ordinal integer NOT NULL,
    start_offset integer NOT NULL,
    end_offset   integer NOT NULL,
    text         text NOT NULL,
    embedding    vector(384),
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (document_id, page_ordinal)
);
CREATE INDEX memo_embedding_hnsw_idx ON memo USING hnsw (embedding vector_cosine_ops);
