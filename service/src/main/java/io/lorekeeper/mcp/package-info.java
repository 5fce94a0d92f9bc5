/**
 * The Model Context Protocol server at {@code /mcp} (streamable HTTP): tools and resources that let
 * an agent add, search and ask about documents through the modules' public APIs, under the caller's
 * tenant, with the same validation as the REST API.
 */
@org.springframework.modulith.ApplicationModule(
        allowedDependencies = {"document", "document::search", "platform", "question", "retrieval", "security"})
package io.lorekeeper.mcp;
