/**
 * The {@code chain-of-agents} strategy, COSMIR's main baseline: workers read the documents in
 * order in large chunks, each rewriting a bounded running summary for the next, and a manager
 * answers from the last summary.
 */
@org.springframework.modulith.ApplicationModule(allowedDependencies = {"document", "llm", "strategy", "text"})
package io.lorekeeper.chainofagents;
