package io.lorekeeper.document;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import io.lorekeeper.document.ingestion.IngestionPipeline;
import io.lorekeeper.document.intake.DocumentIntake;
import io.lorekeeper.document.lifecycle.DocumentRows;

/**
 * Memories built on a reader's demand: a question whose strategy needs a memory that was skipped
 * because it is built only when asked for (ComoRAG's index layers, outside the {@code deep}
 * profile) starts building it, as a reindex naming it would, and waits for it like any memory in
 * progress.
 */
@Service
public class MemoryBuilds {

    private final ObjectProvider<DocumentIntake> intake;
    private final IngestionPipeline pipeline;
    private final DocumentRows rows;

    /**
     * The intake comes through a provider: it schedules jobs, the job scheduler knows every job, and the
     * answer job asks this class, so a direct reference would close a cycle.
     */
    MemoryBuilds(ObjectProvider<DocumentIntake> intake, IngestionPipeline pipeline, DocumentRows rows) {
        this.intake = intake;
        this.pipeline = pipeline;
        this.rows = rows;
    }

    /**
     * Whether the memory, SKIPPED now, would be built if asked for: its stage is built on demand (or
     * did not apply when the document was ingested) and applies to the document now. False for a
     * memory skipped because no LLM is configured or the document's profile is retrieval-only, and for
     * every memory that is not SKIPPED.
     */
    public boolean buildable(MemoryState memory) {
        if (memory.status() != StageStatus.SKIPPED) {
            return false;
        }
        return rows.find(memory.documentId())
                .filter(d -> d.status() == DocumentStatus.READY)
                .map(d -> pipeline.buildable(d, memory.stage()))
                .orElse(false);
    }

    /**
     * Starts building the given memories of the tenant's documents, as a reindex naming them does:
     * the tenant's token quota is checked (where a caller is known), each document's stages are reset
     * and marked requested, and its ingestion job is queued, in the caller's transaction when there is
     * one. Memories that are no longer SKIPPED, or would not be built, are left as they are. Returns
     * the memories it started, now PENDING.
     *
     * @throws io.lorekeeper.platform.ApiProblem 409 when a document is being ingested, 429 when the
     *     tenant has spent its tokens for today
     */
    @Transactional
    public List<MemoryState> build(UUID tenantId, List<MemoryState> memories) {
        Map<UUID, Set<String>> byDocument = new LinkedHashMap<>();
        for (MemoryState memory : memories) {
            byDocument
                    .computeIfAbsent(memory.documentId(), id -> new LinkedHashSet<>())
                    .add(memory.stage());
        }
        List<MemoryState> started = new ArrayList<>();
        byDocument.forEach((documentId, stages) -> {
            for (String stage : intake.getObject().buildOnDemand(tenantId, documentId, stages)) {
                started.add(new MemoryState(
                        documentId,
                        stage,
                        StageStatus.PENDING,
                        "being built on demand: a question needs it",
                        null,
                        true));
            }
        });
        return started;
    }
}
