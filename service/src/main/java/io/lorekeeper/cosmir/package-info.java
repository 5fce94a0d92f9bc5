/**
 * The {@code cosmir} strategy (seed 000): a planner's sub-questions, a worker micro-cycle
 * (extract, prune, infer, refine) over the documents read in order in large chunks, writing to a
 * structured memory of open questions, gathered and inferred facts, and a manager that answers
 * from that memory, citing the spans the facts were taken from.
 */
@org.springframework.modulith.ApplicationModule(allowedDependencies = {"document", "llm", "strategy", "text"})
package io.lorekeeper.cosmir;
