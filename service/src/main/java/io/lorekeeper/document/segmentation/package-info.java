/**
 * The canonical text cut into chunks and pages, inside the document module: the first ingestion stage
 * ({@link io.lorekeeper.document.segmentation.SegmentStage}), the cutting itself
 * ({@link io.lorekeeper.document.segmentation.Segmenter}: whole texts at once, conversations
 * incrementally after the last stored chunk), and the chunk and page rows with the counts and lexeme
 * statistics derived from them ({@link io.lorekeeper.document.segmentation.SegmentationStore}), which the
 * search in {@code document.search} reads. Internal: the stage is found by the ingestion job through the
 * stage SPI; the base package refreshes the keyword statistics through the store.
 */
package io.lorekeeper.document.segmentation;
