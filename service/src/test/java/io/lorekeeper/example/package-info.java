/**
 * An example strategy, in the test sources only: what adding a strategy takes, and the proof that
 * {@code auto} routes to one from its declaration alone. It is a module like the deployed strategies
 * (the module test verifies it) and is registered only in the context of its own test.
 */
@org.springframework.modulith.ApplicationModule(allowedDependencies = {"document::search", "retrieval", "strategy"})
package io.lorekeeper.example;
