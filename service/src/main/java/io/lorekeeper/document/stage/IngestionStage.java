package io.lorekeeper.document.stage;

import io.lorekeeper.document.DocumentInfo;
import io.lorekeeper.document.IndexProfiles;

/**
 * One step of building a document's memory after intake (segmentation, embeddings, and later the
 * LLM-written layers). Stages run in {@link #position()} order inside the ingestion job; each must
 * be idempotent and resumable: after a crash the job calls {@link #run} again, and the stage
 * continues from what it already stored.
 *
 * <p>A conversation grows when sessions are appended: every stage then runs again with its
 * earlier output in place, and must add what the new chunks and pages need without rebuilding
 * the rest (the segment stage appends chunks and pages; later stages find the units they have
 * not processed yet).
 */
public interface IngestionStage {

    /** Stable name shown in progress reports and accepted by reindex requests. */
    String name();

    /** Run order, a constant of {@link StageOrder}: the segmentation stage is {@link StageOrder#SEGMENT}. */
    int position();

    /**
     * Whether this stage applies to a document; a stage that does not (an LLM stage with no LLM
     * configured, say) is recorded as skipped with this reason.
     */
    default Applicability applicability(DocumentInfo document) {
        return Applicability.APPLIES;
    }

    /**
     * Whether this stage builds an optional, LLM-written memory (memos, page headers, graphs,
     * summaries) rather than the retrieval index. A document is READY once its retrieval stages are
     * done; enrichment stages run after that, each with its own state, and their failure never fails
     * the document (it is retried with backoff, and can be run again through reindex).
     */
    default boolean enrichment() {
        return false;
    }

    /**
     * Whether this stage is expensive enough to be built only when asked for: by a document profile
     * that lists it, or by a reindex request naming it. Otherwise it is recorded as skipped, with a
     * reason that says how to build it.
     */
    default boolean onDemand() {
        return false;
    }

    void run(StageRun run) throws Exception;

    /** Forget this stage's output so that the next run rebuilds it from scratch. */
    default void reset(java.util.UUID documentId) {}

    record Applicability(boolean applies, String reason) {
        public static final Applicability APPLIES = new Applicability(true, null);

        public static Applicability skip(String reason) {
            return new Applicability(false, reason);
        }

        /**
         * Whether an LLM-written memory is built for a document: an LLM is configured and the
         * document's profile asks for such memories (every profile but retrieval-only does).
         */
        public static Applicability llmWritten(DocumentInfo document, boolean llmConfigured) {
            if (IndexProfiles.RETRIEVAL_ONLY.equals(document.profile())) {
                return skip("the document's profile is retrieval-only, which builds no LLM-written memory");
            }
            if (!llmConfigured) {
                return skip("no LLM is configured; configure one and reindex this stage to build it");
            }
            return APPLIES;
        }
    }
}
