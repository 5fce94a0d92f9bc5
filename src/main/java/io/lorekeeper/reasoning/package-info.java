/**
 * How questions get answered: the {@link io.lorekeeper.reasoning.AnswerStrategy} SPI, one
 * sub-package per strategy, and the citation check every strategy's output passes through.
 *
 * <p>Owns the tables strategies build for themselves: the concept graphs ({@code graph},
 * {@code graph_node}, {@code graph_edge}, {@code graph_summary}) and ComoRAG's layers
 * ({@code comorag_unit}, {@code comorag_triple}, {@code comorag_summary}, {@code comorag_graph},
 * {@code comorag_entity}); chunks are read through
 * the document module's API.
 */
@io.lorekeeper.platform.OwnsTables({
    "graph",
    "graph_node",
    "graph_edge",
    "graph_summary",
    "comorag_unit",
    "comorag_triple",
    "comorag_summary",
    "comorag_graph",
    "comorag_entity"
})
@org.springframework.modulith.ApplicationModule(
        allowedDependencies = {"document", "llm", "memory", "platform", "retrieval", "security", "text"})
package io.lorekeeper.reasoning;
