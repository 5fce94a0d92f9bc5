/**
 * The {@code auto} strategy: explicit, traced rules that pick one of the deployed strategies per
 * question from what is known before any model call.
 */
@org.springframework.modulith.ApplicationModule(allowedDependencies = {"document", "llm", "strategy"})
package io.lorekeeper.auto;
