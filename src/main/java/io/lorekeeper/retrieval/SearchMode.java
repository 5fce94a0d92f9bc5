package io.lorekeeper.retrieval;

public enum SearchMode {
    VECTOR, KEYWORD, HYBRID
}
