/**
 * The {@code memcot} strategy (MemCoT): a short-term memory of units, grown per round by zoom-in
 * (the passages the queries find) and zoom-out (the windows around what is known), judged after each
 * round, with a responder answering from the memory. Settings: {@link io.lorekeeper.memcot.MemCotSettings}.
 */
@org.springframework.modulith.ApplicationModule(
        allowedDependencies = {"document", "document::search", "llm", "retrieval", "strategy", "text"})
package io.lorekeeper.memcot;
