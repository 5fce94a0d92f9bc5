/**
 * Memory built from segmented documents: embeddings now; the LLM-written layers (memos, page
 * headers, triples, summaries, graphs) join as further ingestion stages.
 */
package io.lorekeeper.memory;
