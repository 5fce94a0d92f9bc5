package io.lorekeeper.document.search;

/**
 * A lexeme of the chunks a deep search feeds back: in how many of them, how often in all, its
 * document frequency, IDF and share of the chunks in the searched documents.
 */
public record FeedbackLexeme(String lexeme, int chunks, int tf, long df, double idf, double share) {}
