-- Optimistic locking for the Document aggregate (the document row with its ingestion_stage rows):
-- every change to the document or one of its stages checks and bumps the document's version, so
-- an ingestion job and a request (append, reindex, delete) that read the same state cannot both
-- write it. Rows written before this version (and rows tests insert directly) start at 0.
ALTER TABLE document ADD COLUMN version bigint NOT NULL DEFAULT 0;

-- Spring Modulith's event publication registry (spring-modulith-events-jdbc 2.1, schema v2 for
-- PostgreSQL, as shipped in the jar at org/springframework/modulith/events/jdbc/schemas/v2/):
-- an event between modules (DocumentReady, DocumentDeleted) is stored with the transaction that
-- publishes it, one row per listener, and completed once that listener has handled it, so an event
-- whose listener had not run when the process stopped is handed to it again after a restart.
CREATE TABLE event_publication (
    id                     uuid NOT NULL,
    listener_id            text NOT NULL,
    event_type             text NOT NULL,
    serialized_event       text NOT NULL,
    publication_date       timestamptz NOT NULL,
    completion_date        timestamptz,
    status                 text,
    completion_attempts    integer,
    last_resubmission_date timestamptz,
    PRIMARY KEY (id)
);
CREATE INDEX event_publication_serialized_event_hash_idx ON event_publication USING hash (serialized_event);
CREATE INDEX event_publication_by_completion_date_idx ON event_publication (completion_date);
