package io.lorekeeper.document;

import java.util.UUID;

/**
 * Published when a document's retrieval stages are done and it became READY (searchable and
 * answerable), in the transaction that made it so; enrichments may still be running. Delivered to
 * other modules' {@code @ApplicationModuleListener}s through the event publication registry, so it
 * reaches them after a restart too: listeners must tolerate seeing it twice.
 */
public record DocumentReady(UUID documentId, UUID tenantId) {}
