/**
 * Memory built from segmented documents, as ingestion stages: embeddings of every chunk, and the
 * GAM memorizer's memos and page headers (written by the LLM, skipped when none is configured).
 * Further LLM-written layers (triples, summaries, graphs) join as further stages.
 */
@io.lorekeeper.platform.OwnsTables({"memo"})
package io.lorekeeper.memory;
