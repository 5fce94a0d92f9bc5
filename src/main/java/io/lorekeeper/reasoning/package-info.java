/**
 * How questions get answered: the {@link io.lorekeeper.reasoning.AnswerStrategy} SPI, one
 * sub-package per strategy, and the citation check every strategy's output passes through.
 */
@io.lorekeeper.platform.OwnsTables({"graph", "graph_node", "graph_edge", "graph_summary", "comorag_unit", "comorag_triple", "comorag_summary"})
package io.lorekeeper.reasoning;
