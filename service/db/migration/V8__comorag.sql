-- ComoRAG's hierarchical index (seed 001): veridical units (runs of consecutive chunks of about
-- 512 tokens, so spans stay exact) with the entities and triples an LLM extracted from them, and
-- summaries of the semantic layer (recursive cluster summaries) and the episodic layer
-- (sliding-window summaries). Built by on-demand enrichment stages; everything is deleted with
-- its document.

CREATE TABLE comorag_unit (
    document_id  uuid NOT NULL REFERENCES document (id) ON DELETE CASCADE,
    ordinal      integer NOT NULL,
    first_chunk  integer NOT NULL,
    last_chunk   integer NOT NULL,
    page_ordinal integer NOT NULL,
    start_offset integer NOT NULL,
    end_offset   integer NOT NULL,
    token_count  integer NOT NULL,
    -- mean of the member chunks' embeddings
    embedding    vector(384) NOT NULL,
    -- set by the triples stage once this unit's entities and triples are stored (its checkpoint)
    entities     text[],
    PRIMARY KEY (document_id, ordinal)
);
CREATE INDEX comorag_unit_embedding_hnsw_idx ON comorag_unit USING hnsw (embedding vector_cosine_ops);

CREATE TABLE comorag_triple (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    document_id  uuid NOT NULL,
    unit_ordinal integer NOT NULL,
    subject      text NOT NULL,
    predicate    text NOT NULL,
    object       text NOT NULL,
    -- embedding of the fact string "subject predicate object"
    embedding    vector(384) NOT NULL,
    FOREIGN KEY (document_id, unit_ordinal) REFERENCES comorag_unit (document_id, ordinal) ON DELETE CASCADE
);
CREATE INDEX comorag_triple_unit_idx ON comorag_triple (document_id, unit_ordinal);
CREATE INDEX comorag_triple_embedding_hnsw_idx ON comorag_triple USING hnsw (embedding vector_cosine_ops);

CREATE TABLE comorag_summary (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    document_id  uuid NOT NULL REFERENCES document (id) ON DELETE CASCADE,
    layer        text NOT NULL CHECK (layer IN ('semantic', 'episodic')),
    level        integer NOT NULL,
    ordinal      integer NOT NULL,
    -- what was summarised: 'u:3,4,9' (units) at level 1, 's:17,18' (summary ids of the level below)
    -- above; a rebuild keeps every summary whose members did not change
    member_key   text NOT NULL,
    -- every unit the summary covers, through all levels below it, in document order
    units        integer[] NOT NULL,
    -- first unit's start to last unit's end; for a semantic summary the units need not be contiguous
    start_offset integer NOT NULL,
    end_offset   integer NOT NULL,
    text         text NOT NULL,
    embedding    vector(384) NOT NULL,
    UNIQUE (document_id, layer, level, member_key)
);
CREATE INDEX comorag_summary_layer_idx ON comorag_summary (document_id, layer, level, ordinal);
CREATE INDEX comorag_summary_embedding_hnsw_idx ON comorag_summary USING hnsw (embedding vector_cosine_ops);
