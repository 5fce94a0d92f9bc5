-- Moving a database's vectors to another embedding model without stopping search (memory.EmbeddingChanges):
-- every vector set is filled again into a column beside the live one, then the columns are swapped in one
-- transaction and the generation moves on, which tells every replica to embed with the new model.
ALTER TABLE embedding_model ADD COLUMN generation bigint NOT NULL DEFAULT 1;

CREATE TABLE embedding_change (
    id              uuid PRIMARY KEY,
    model           text NOT NULL,
    dimensions      integer NOT NULL,
    from_model      text NOT NULL,
    state           text NOT NULL CHECK (state IN ('FILLING', 'SWITCHING', 'SWITCHED', 'CANCELLED', 'FAILED')),
    documents_total integer NOT NULL DEFAULT 0,
    documents_done  integer NOT NULL DEFAULT 0,
    failure         text,
    requested_at    timestamptz NOT NULL DEFAULT now(),
    finished_at     timestamptz,
    version         bigint NOT NULL DEFAULT 0
);

-- one change at a time: two would fill the same columns
CREATE UNIQUE INDEX embedding_change_one_running ON embedding_change ((true)) WHERE state IN ('FILLING', 'SWITCHING');

-- the documents whose vectors the change has filled: a job killed half-way resumes after the last
CREATE TABLE embedding_change_document (
    change_id   uuid NOT NULL REFERENCES embedding_change (id) ON DELETE CASCADE,
    document_id uuid NOT NULL,
    PRIMARY KEY (change_id, document_id)
);
