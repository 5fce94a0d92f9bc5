package io.lorekeeper.document;

/** What a running {@link IngestionStage} gets: its document, and a way to report progress. */
public interface StageRun {

    DocumentInfo document();

    /** Records {@code done} of {@code total} units (chunks, pages...); visible in GET /v1/documents/{id}. */
    void progress(int done, int total);
}
