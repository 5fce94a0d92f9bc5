package io.lorekeeper.document.search;

/**
 * A term of a BM25 search: a query lexeme, its document frequency in the searched chunks, its IDF
 * and the weight its score counts with (1 for the query's own terms, less for feedback terms).
 */
public record KeywordTerm(String lexeme, long df, double idf, double weight) {

    KeywordTerm(String lexeme, long df, double idf) {
        this(lexeme, df, idf, 1.0);
    }
}
