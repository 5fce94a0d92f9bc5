package io.lorekeeper.document;

import java.util.UUID;

/**
 * Published when a memory built after a document became READY (an enrichment stage: GAM's memos, the
 * sentences memory, ComoRAG's indexes) finished a run, in the transaction that recorded it. Questions
 * waiting for that memory start on it rather than at their next look. Delivered through the event
 * publication registry like {@link DocumentReady}: listeners must tolerate seeing it twice.
 *
 * @param stage the stage's name, as in the document's {@code stages} and a question's {@code waitingFor}
 */
public record MemoryBuilt(UUID documentId, UUID tenantId, String stage) {}
