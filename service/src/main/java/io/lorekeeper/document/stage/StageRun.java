package io.lorekeeper.document.stage;

import io.lorekeeper.document.DocumentInfo;

/** What a running {@link IngestionStage} gets: its document, and a way to report progress. */
public interface StageRun {

    DocumentInfo document();

    /** Records {@code done} of {@code total} units (chunks, pages...); visible in GET /v1/documents/{id}. */
    void progress(int done, int total);

    /**
     * Records that one item of this run (a page's memo, a unit's triples, a summary, a graph block) was
     * left without its output, because the model's reply for it stayed unusable after the gateway's
     * repair. The stage goes on with the next item and still ends DONE, with the gap counted and the
     * first few gaps named in GET /v1/documents/{id}; a later run of the stage (a reindex without
     * stages, appended sessions) tries the gaps again. A stage must not try an item again within the
     * run that reported it.
     *
     * @param item   which item, as a reader would name it ("page 3", "unit 12", "episodic level 1 group 4")
     * @param reason why, in a few words
     */
    default void itemFailed(String item, String reason) {}
}
