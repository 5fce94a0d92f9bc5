package io.lorekeeper.document;

import java.util.UUID;

/**
 * Published when a document was deleted, in the transaction that deleted it (its rows, and every
 * memory built from them, are gone through ON DELETE CASCADE). Other modules react to it for what
 * the cascade cannot reach. Delivered through the event publication registry, so it survives a
 * restart: listeners must tolerate seeing it twice.
 */
public record DocumentDeleted(UUID documentId, UUID tenantId) {}
