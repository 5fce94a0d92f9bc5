package io.lorekeeper.document.segmentation;

import java.util.List;
import java.util.UUID;

import org.springframework.stereotype.Component;

import io.lorekeeper.document.DocumentInfo;
import io.lorekeeper.document.DocumentKind;
import io.lorekeeper.document.intake.CanonicalText;
import io.lorekeeper.document.intake.CanonicalTexts;
import io.lorekeeper.document.lifecycle.DocumentRows;
import io.lorekeeper.document.stage.IngestionStage;
import io.lorekeeper.document.stage.StageOrder;
import io.lorekeeper.document.stage.StageRun;

/**
 * First ingestion stage: cuts the canonical text into chunks and pages. The keyword index needs no
 * stage of its own: PostgreSQL derives each chunk's text-search vector as the chunk is written.
 *
 * <p>A text is segmented in one go, replacing any earlier segmentation in one transaction, so a
 * re-run is safe. A conversation grows by appended sessions, so it is segmented incrementally:
 * only sessions after the last stored chunk are cut, and their chunks and pages are added after
 * the stored ones in one transaction. Earlier chunks keep their ids and embeddings, and earlier
 * pages their memos and headers.
 */
@Component
class SegmentStage implements IngestionStage {

    static final String NAME = "segment";

    private final CanonicalTexts texts;
    private final SegmentationStore segmentation;
    private final DocumentRows rows;
    private final Segmenter segmenter = Segmenter.standard();

    SegmentStage(CanonicalTexts texts, SegmentationStore segmentation, DocumentRows rows) {
        this.texts = texts;
        this.segmentation = segmentation;
        this.rows = rows;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int position() {
        return StageOrder.SEGMENT;
    }

    @Override
    public void run(StageRun run) {
        UUID id = run.document().id();
        CanonicalText canonical = texts.canonical(id);
        if (run.document().kind() == DocumentKind.CONVERSATION) {
            segmentation.append(id, segmenter.segmentConversation(canonical, segmentation.end(id)));
        } else {
            // pages and sections of an uploaded file: GAM's pages break at them where they can
            List<Integer> boundaries =
                    texts.sections(id).stream().map(s -> s.span().start()).toList();
            segmentation.replace(id, segmenter.segment(canonical, boundaries));
        }
        int chunks = rows.find(id).map(DocumentInfo::chunkCount).orElse(0);
        run.progress(chunks, chunks);
    }

    /** Rebuilding the segmentation starts from nothing, for conversations too. */
    @Override
    public void reset(UUID documentId) {
        segmentation.delete(documentId);
    }
}
