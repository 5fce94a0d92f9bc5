package io.lorekeeper.reasoning.comorag;

import io.lorekeeper.document.DocumentInfo;
import io.lorekeeper.document.IndexProfiles;
import io.lorekeeper.document.IngestionStage.Applicability;
import io.lorekeeper.llm.LlmGateway;

/**
 * When ComoRAG's index can be built: an LLM is configured and the document's profile does not
 * forbid LLM-written memory. (That it is built only on demand is the pipeline's business: every
 * stage of the index is {@code onDemand}.)
 */
final class IndexApplicability {

    private IndexApplicability() {
    }

    static Applicability of(LlmGateway gateway, DocumentInfo document) {
        if (IndexProfiles.RETRIEVAL_ONLY.equals(document.profile())) {
            return Applicability.skip("the document's profile is retrieval-only, which builds no LLM-written memory");
        }
        if (!gateway.isConfigured()) {
            return Applicability.skip("no LLM is configured; configure one and reindex this stage to build it");
        }
        return Applicability.APPLIES;
    }
}
