package io.lorekeeper.document;

import org.springframework.stereotype.Component;

/**
 * First ingestion stage: cuts the canonical text into chunks and pages. Replaces any earlier
 * segmentation in one transaction, so a re-run is safe. The keyword index needs no stage of its
 * own: PostgreSQL derives each chunk's text-search vector as the chunk is written.
 */
@Component
class SegmentStage implements IngestionStage {

    static final String NAME = "segment";

    private final DocumentStore store;
    private final Segmenter segmenter = Segmenter.standard();

    SegmentStage(DocumentStore store) {
        this.store = store;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int position() {
        return 10;
    }

    @Override
    public void run(StageRun run) {
        CanonicalText canonical = store.canonical(run.document().id());
        Segmentation segmentation = segmenter.segment(canonical);
        store.replaceSegmentation(run.document().id(), segmentation);
        run.progress(segmentation.chunks().size(), segmentation.chunks().size());
    }
}
