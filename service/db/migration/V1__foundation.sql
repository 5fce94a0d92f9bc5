-- Foundation schema: tenants, documents with their canonical text and segmentation, the
-- retrieval index (chunks with embeddings and full-text vectors), questions with their traces,
-- and db-scheduler's task table.

-- Needs a superuser: pgvector is not a trusted extension.
CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE tenant (
    id         uuid PRIMARY KEY,
    name       text NOT NULL UNIQUE,
    created_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO tenant (id, name) VALUES ('00000000-0000-0000-0000-000000000000', 'default');

CREATE TABLE document (
    id             uuid PRIMARY KEY,
    tenant_id      uuid NOT NULL REFERENCES tenant (id),
    title          text NOT NULL,
    kind           text NOT NULL CHECK (kind IN ('TEXT', 'CONVERSATION')),
    profile        text NOT NULL,
    metadata       jsonb NOT NULL DEFAULT '{}',
    status         text NOT NULL CHECK (status IN ('QUEUED', 'INGESTING', 'READY', 'FAILED')),
    failure_reason text,
    content_hash   text NOT NULL,
    char_count     integer NOT NULL,
    token_count    integer NOT NULL DEFAULT 0,
    chunk_count    integer NOT NULL DEFAULT 0,
    -- sum of chunk.term_count, for BM25 length normalisation
    term_total     bigint NOT NULL DEFAULT 0,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    UNIQUE (tenant_id, content_hash)
);
CREATE INDEX document_tenant_created_idx ON document (tenant_id, created_at DESC, id);

CREATE TABLE document_text (
    document_id uuid PRIMARY KEY REFERENCES document (id) ON DELETE CASCADE,
    text        text NOT NULL
);

-- Conversation documents: where each session and turn sits in the canonical text.
CREATE TABLE conversation_turn (
    document_id   uuid NOT NULL REFERENCES document (id) ON DELETE CASCADE,
    turn_id       text NOT NULL,
    session_id    text NOT NULL,
    session_index integer NOT NULL,
    turn_index    integer NOT NULL,
    speaker       text NOT NULL,
    start_offset  integer NOT NULL,
    end_offset    integer NOT NULL,
    PRIMARY KEY (document_id, turn_id)
);
CREATE INDEX conversation_turn_span_idx ON conversation_turn (document_id, start_offset);

-- Progress and checkpoint of each ingestion stage; a restarted job resumes from here.
CREATE TABLE ingestion_stage (
    document_id uuid NOT NULL REFERENCES document (id) ON DELETE CASCADE,
    stage       text NOT NULL,
    position    integer NOT NULL,
    status      text NOT NULL CHECK (status IN ('PENDING', 'RUNNING', 'DONE', 'FAILED', 'SKIPPED')),
    done        integer NOT NULL DEFAULT 0,
    total       integer NOT NULL DEFAULT 0,
    message     text,
    updated_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (document_id, stage)
);

-- Number of lexeme occurrences in a tsvector: the document length BM25 normalises by.
CREATE FUNCTION lk_term_count(t tsvector) RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
AS $$ SELECT coalesce(sum(coalesce(array_length(u.positions, 1), 1)), 0)::integer FROM unnest(t) AS u $$;

CREATE TABLE chunk (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    document_id  uuid NOT NULL REFERENCES document (id) ON DELETE CASCADE,
    ordinal      integer NOT NULL,
    page_ordinal integer NOT NULL,
    start_offset integer NOT NULL,
    end_offset   integer NOT NULL,
    text         text NOT NULL,
    token_count  integer NOT NULL,
    turn_ids     text[] NOT NULL DEFAULT '{}',
    tsv          tsvector GENERATED ALWAYS AS (to_tsvector('english', text)) STORED,
    term_count   integer GENERATED ALWAYS AS (lk_term_count(to_tsvector('english', text))) STORED,
    embedding    vector(384),
    UNIQUE (document_id, ordinal)
);
CREATE INDEX chunk_embedding_hnsw_idx ON chunk USING hnsw (embedding vector_cosine_ops);
CREATE INDEX chunk_tsv_idx ON chunk USING gin (tsv);
CREATE INDEX chunk_unembedded_idx ON chunk (document_id, ordinal) WHERE embedding IS NULL;

-- GAM page: a run of consecutive chunks (2,048 tokens, or one conversation session).
CREATE TABLE page (
    document_id  uuid NOT NULL REFERENCES document (id) ON DELETE CASCADE,
    ordinal      integer NOT NULL,
    first_chunk  integer NOT NULL,
    last_chunk   integer NOT NULL,
    start_offset integer NOT NULL,
    end_offset   integer NOT NULL,
    token_count  integer NOT NULL,
    session_id   text,
    header       text,
    PRIMARY KEY (document_id, ordinal)
);

CREATE TABLE question (
    id             uuid PRIMARY KEY,
    tenant_id      uuid NOT NULL REFERENCES tenant (id),
    document_ids   uuid[] NOT NULL,
    question       text NOT NULL,
    strategy       text NOT NULL,
    choices        jsonb,
    options        jsonb NOT NULL DEFAULT '{}',
    status         text NOT NULL CHECK (status IN ('QUEUED', 'RUNNING', 'DONE', 'FAILED')),
    answer         text,
    mode           text,
    choice_index   integer,
    confidence     double precision,
    citations      jsonb,
    budget_limited boolean NOT NULL DEFAULT false,
    failure_reason text,
    created_at     timestamptz NOT NULL DEFAULT now(),
    started_at     timestamptz,
    finished_at    timestamptz
);
CREATE INDEX question_tenant_created_idx ON question (tenant_id, created_at DESC);

CREATE TABLE trace_event (
    question_id uuid NOT NULL REFERENCES question (id) ON DELETE CASCADE,
    seq         integer NOT NULL,
    type        text NOT NULL,
    payload     jsonb NOT NULL,
    at          timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (question_id, seq)
);

-- db-scheduler (https://github.com/kagkarlsson/db-scheduler), PostgreSQL layout.
CREATE TABLE scheduled_tasks (
    task_name            text NOT NULL,
    task_instance        text NOT NULL,
    task_data            bytea,
    execution_time       timestamptz,
    picked               boolean NOT NULL,
    picked_by            text,
    last_success         timestamptz,
    last_failure         timestamptz,
    consecutive_failures integer,
    last_heartbeat       timestamptz,
    version              bigint NOT NULL,
    priority             smallint,
    state                text,
    PRIMARY KEY (task_name, task_instance)
);
CREATE INDEX execution_time_idx ON scheduled_tasks (execution_time);
CREATE INDEX last_heartbeat_idx ON scheduled_tasks (last_heartbeat);
CREATE INDEX priority_execution_time_idx ON scheduled_tasks (priority DESC, execution_time ASC);

-- Conversation documents: each session's span, so that a page can be one session.
CREATE TABLE conversation_session (
    document_id   uuid NOT NULL REFERENCES document (id) ON DELETE CASCADE,
    session_index integer NOT NULL,
    session_id    text NOT NULL,
    date_time     text,
    start_offset  integer NOT NULL,
    end_offset    integer NOT NULL,
    PRIMARY KEY (document_id, session_index)
);
