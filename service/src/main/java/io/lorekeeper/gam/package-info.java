/**
 * The {@code gam} strategy (General Agentic Memory): a researcher plans searches over the
 * document's pages and memos, integrates what it read into notes and reflects on whether they
 * suffice, for a few rounds; an answerer then writes the short answer from the notes and cites the
 * pages they came from. Settings: {@link io.lorekeeper.gam.GamSettings}.
 */
@org.springframework.modulith.ApplicationModule(
        allowedDependencies = {"document::search", "llm", "retrieval", "strategy", "text"})
package io.lorekeeper.gam;
