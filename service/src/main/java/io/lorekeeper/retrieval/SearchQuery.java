package io.lorekeeper.retrieval;

import io.lorekeeper.platform.ApiProblem;

/**
 * The rule for a search query a client sends, one for every entry point (the REST API and the MCP
 * server): not blank, and no longer than {@link #MAX_LENGTH}. A longer one is no query a person
 * writes, and past about a megabyte PostgreSQL's full-text parser refuses it with an SQL error.
 */
public final class SearchQuery {

    /** The longest query accepted, in characters. */
    public static final int MAX_LENGTH = 4000;

    private SearchQuery() {}

    /** {@code query}, or a problem naming {@code field} when it is blank or too long. */
    public static String require(String field, String query) {
        if (query == null || query.isBlank()) {
            throw ApiProblem.invalid(field, field + " must not be blank");
        }
        if (query.length() > MAX_LENGTH) {
            throw ApiProblem.invalid(field, field + " must be at most " + MAX_LENGTH + " characters");
        }
        return query;
    }
}
