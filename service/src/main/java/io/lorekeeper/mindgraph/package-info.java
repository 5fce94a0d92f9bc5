/**
 * The {@code mindgraph} strategy: a concept graph built from the document (claims, entities and
 * their relations, each node quoting its source), community reports over it, and an answering loop
 * that walks the graph with tools and looks up the source spans behind the nodes it uses. Serves the
 * graph itself at {@code /v1/documents/{id}/graph}.
 *
 * <p>Owns the concept-graph tables; chunks are read through the document module's API.
 */
@io.lorekeeper.platform.OwnsTables({"graph", "graph_node", "graph_edge", "graph_summary"})
@org.springframework.modulith.ApplicationModule(
        allowedDependencies = {"document", "document::stage", "llm", "platform", "security", "strategy", "text"})
package io.lorekeeper.mindgraph;
