/**
 * The {@code rag} baseline: one hybrid retrieval, one answering call over the passages found.
 */
@org.springframework.modulith.ApplicationModule(
        allowedDependencies = {"document", "document::search", "llm", "retrieval", "strategy", "text"})
package io.lorekeeper.rag;
