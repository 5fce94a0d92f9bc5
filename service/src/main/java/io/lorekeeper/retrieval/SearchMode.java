package io.lorekeeper.retrieval;

public enum SearchMode {
    VECTOR,
    KEYWORD,
    HYBRID,
    /** Hybrid, then a second retrieval steered by the first hits (pseudo-relevance feedback), fused with it. */
    DEEP
}
