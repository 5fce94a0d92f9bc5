-- The "sentences" memory (memory.SentenceStage): a vector for every sentence of every chunk, as
-- text.ChunkSentences splits it, computed once after a document is READY so that no question has
-- to embed the sentences it scores. float16, little-endian: 768 bytes for bge-small's 384 dimensions.
CREATE TABLE sentence_vector (
    document_id   uuid NOT NULL REFERENCES document (id) ON DELETE CASCADE,
    start_offset  integer NOT NULL,
    end_offset    integer NOT NULL,
    chunk_ordinal integer NOT NULL,
    embedding     bytea NOT NULL,
    PRIMARY KEY (document_id, start_offset, end_offset)
);
