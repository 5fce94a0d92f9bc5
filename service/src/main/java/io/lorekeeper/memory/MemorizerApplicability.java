package io.lorekeeper.memory;

import io.lorekeeper.document.DocumentInfo;
import io.lorekeeper.document.IndexProfiles;
import io.lorekeeper.document.IngestionStage.Applicability;
import io.lorekeeper.llm.LlmGateway;

/**
 * When the LLM-written layers are built: an LLM is configured and the document's profile asks for
 * them. Shared by every stage that writes memory with a model (GAM's here, ComoRAG's index).
 */
public final class MemorizerApplicability {

    private MemorizerApplicability() {}

    public static Applicability of(LlmGateway gateway, DocumentInfo document) {
        if (IndexProfiles.RETRIEVAL_ONLY.equals(document.profile())) {
            return Applicability.skip("the document's profile is retrieval-only, which builds no LLM-written memory");
        }
        if (!gateway.isConfigured()) {
            return Applicability.skip("no LLM is configured; configure one and reindex this stage to build it");
        }
        return Applicability.APPLIES;
    }
}
