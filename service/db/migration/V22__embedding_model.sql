-- The embedding model the stored vectors were made with (StoredEmbeddingModel): one row, written by the
-- first replica that starts on an empty database, checked by every replica at start. A database that
-- already holds vectors made them with the only model there was until now.
CREATE TABLE embedding_model (
    id          boolean PRIMARY KEY DEFAULT true CHECK (id),
    name        text NOT NULL,
    dimensions  integer NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT now()
);

INSERT INTO embedding_model (name, dimensions)
SELECT 'bge-small-en-v1.5', 384
WHERE EXISTS (SELECT 1 FROM chunk WHERE embedding IS NOT NULL);
