-- ComoRAG's veridical graph (after HippoRAG 2), built by the triples stage from the extracted
-- triples: one row per document holding the whole graph (entity and passage nodes, fact, passage
-- and synonym edges) as a compact compressed-sparse-row blob, since retrieval always needs the
-- whole graph of a document for its personalised PageRank and one row loads in about a
-- millisecond; and the entity nodes with their name embeddings, searched to link a probe to them.

CREATE TABLE comorag_graph (
    document_id  uuid PRIMARY KEY REFERENCES document (id) ON DELETE CASCADE,
    entity_count integer NOT NULL,
    unit_count   integer NOT NULL,
    fact_edges   integer NOT NULL,
    passage_edges integer NOT NULL,
    synonym_edges integer NOT NULL,
    graph        bytea NOT NULL,
    built_at     timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE comorag_entity (
    document_id uuid NOT NULL REFERENCES comorag_graph (document_id) ON DELETE CASCADE,
    node        integer NOT NULL,
    name        text NOT NULL,
    embedding   vector(384) NOT NULL,
    PRIMARY KEY (document_id, node)
);
CREATE INDEX comorag_entity_embedding_hnsw_idx ON comorag_entity USING hnsw (embedding vector_cosine_ops);
