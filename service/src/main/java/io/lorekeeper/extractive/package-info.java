/**
 * The {@code extractive} strategy: answers with verbatim sentences of the source, chosen by
 * hybrid retrieval, entity bridging and sentence scoring, with no LLM at all.
 */
@org.springframework.modulith.ApplicationModule(
        allowedDependencies = {"document", "document::search", "memory", "retrieval", "strategy", "text"})
package io.lorekeeper.extractive;
