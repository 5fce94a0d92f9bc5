package io.lorekeeper.document;

public enum DocumentStatus {
    QUEUED,
    INGESTING,
    READY,
    FAILED
}
