package io.lorekeeper.retrieval;

import java.util.List;

/**
 * Scores first-stage passages against a query with a model that reads both together (a
 * cross-encoder, or an LLM): what bi-encoder similarity and BM25 cannot tell apart, such as the one
 * passage that names Miss Havisham's house among forty that repeat her name.
 */
interface Reranker {

    /** One score per passage, in the passages' order; higher is more relevant. */
    double[] scores(String query, List<String> passages);

    /** What the reranker is, for logs and the search response. */
    String name();
}
