-- MindGraph: concept graphs with character-level provenance. A graph belongs to a document and,
-- when built for one question, to that question (scope = hash of the question text); the
-- question-agnostic graph of the `graph` ingestion stage has scope ''.
CREATE TABLE graph (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    document_id  uuid NOT NULL REFERENCES document (id) ON DELETE CASCADE,
    scope        text NOT NULL,
    question     text,
    chunk_tokens integer NOT NULL,
    status       text NOT NULL CHECK (status IN ('BUILDING', 'READY')),
    -- build progress: blocks processed so far and the canonical-text offset they reach
    blocks_done  integer NOT NULL DEFAULT 0,
    built_to     integer NOT NULL DEFAULT 0,
    -- edits rejected during the build, by reason
    rejected     jsonb NOT NULL DEFAULT '{}',
    seeded_from  bigint,
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    UNIQUE (document_id, scope, chunk_tokens)
);

CREATE TABLE graph_node (
    graph_id     bigint NOT NULL REFERENCES graph (id) ON DELETE CASCADE,
    node_id      text NOT NULL,
    ordinal      integer NOT NULL,
    type         text NOT NULL CHECK (type IN ('entity', 'event', 'claim', 'concept', 'stat')),
    content      text NOT NULL,
    -- provenance: [start_offset, end_offset) of the canonical text
    start_offset integer NOT NULL,
    end_offset   integer NOT NULL,
    chunk        integer NOT NULL,
    -- spans of later quotes merged into the node by edit_node: [[start, end], ...]
    merged_spans jsonb NOT NULL DEFAULT '[]',
    PRIMARY KEY (graph_id, node_id)
);

CREATE TABLE graph_edge (
    graph_id     bigint NOT NULL REFERENCES graph (id) ON DELETE CASCADE,
    ordinal      integer NOT NULL,
    source       text NOT NULL,
    target       text NOT NULL,
    relation     text NOT NULL,
    start_offset integer NOT NULL,
    end_offset   integer NOT NULL,
    chunk        integer NOT NULL,
    PRIMARY KEY (graph_id, ordinal)
);

-- Community reports written by the LLM on first use, keyed by the hash of the graph they describe.
CREATE TABLE graph_summary (
    graph_hash   text NOT NULL,
    community    integer NOT NULL,
    node_ids     jsonb NOT NULL,
    title        text NOT NULL,
    rating       double precision NOT NULL,
    summary      text NOT NULL,
    findings     jsonb NOT NULL DEFAULT '[]',
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (graph_hash, community)
);
