-- Structure an uploaded file had, as spans [start_offset, end_offset) of the canonical text: its pages
-- (PDF) and its sections (h1-h6 headings of DOCX, EPUB and HTML). A citation names the page and the
-- innermost section its quote starts in.
CREATE TABLE document_section (
    document_id  uuid NOT NULL REFERENCES document (id) ON DELETE CASCADE,
    ordinal      integer NOT NULL,
    kind         text NOT NULL CHECK (kind IN ('page', 'section')),
    page_number  integer,
    title        text,
    level        integer,
    start_offset integer NOT NULL,
    end_offset   integer NOT NULL,
    PRIMARY KEY (document_id, ordinal),
    CHECK (start_offset >= 0 AND end_offset >= start_offset)
);
CREATE INDEX document_section_span_idx ON document_section (document_id, kind, start_offset);

-- The file a document was extracted from: not its bytes, but enough to recognise it again and to
-- re-extract it when the extraction improves (the client re-uploads the file whose hash matches).
CREATE TABLE document_file (
    document_id uuid PRIMARY KEY REFERENCES document (id) ON DELETE CASCADE,
    file_name   text NOT NULL,
    media_type  text NOT NULL,
    size_bytes  bigint NOT NULL,
    sha256      text NOT NULL
);
