/**
 * The strategy SPI: the {@link io.lorekeeper.strategy.AnswerStrategy} contract every answering
 * method implements (each in its own module: {@code gam}, {@code comorag}, {@code memcot},
 * {@code mindgraph}, {@code cosmir}, {@code chainofagents}, {@code rag}, {@code extractive},
 * {@code auto}), the question context and options they receive, and what they share: quote
 * resolution and the citation check every strategy's output passes through, chunked reading, the
 * last-resort answer and Leiden clustering.
 */
@org.springframework.modulith.ApplicationModule(
        allowedDependencies = {"document", "document::search", "llm", "platform", "retrieval", "text"})
package io.lorekeeper.strategy;
