/**
 * Documents: intake over HTTP, the canonical text every citation points into, segmentation into
 * chunks and pages, and the ingestion job that runs every {@link io.lorekeeper.document.IngestionStage}
 * in order with progress and resumption.
 */
package io.lorekeeper.document;
