/**
 * The retrieval toolkit every answer strategy shares: vector (pgvector HNSW, cosine), keyword
 * (BM25 over PostgreSQL full-text vectors), reciprocal-rank fusion of both, zoom-out to neighbouring
 * chunks, and pages by ordinal; all confined to the documents a caller names.
 */
package io.lorekeeper.retrieval;
