package io.lorekeeper.document;

public enum DocumentKind {
    /** A book, report or transcript given as one text. */
    TEXT,
    /** A history of sessions of speaker turns, rendered into one canonical text. */
    CONVERSATION
}
