/**
 * Documents: intake over HTTP, the canonical text every citation points into, segmentation into
 * chunks and pages, and the ingestion job that runs every {@link io.lorekeeper.document.IngestionStage}
 * in order with progress and resumption.
 */
@io.lorekeeper.platform.OwnsTables({"document", "document_text", "ingestion_stage", "conversation_session", "conversation_turn", "chunk", "page", "document_lexeme"})
package io.lorekeeper.document;
