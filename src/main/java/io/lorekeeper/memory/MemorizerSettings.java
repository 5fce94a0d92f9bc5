package io.lorekeeper.memory;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The GAM memorizer under {@code lorekeeper.memorizer}.
 *
 * @param contextTokens  how much of the memory so far (the most recent memos) a memo or header
 *                       call sees; the memory grows with the document, the prompt must not
 * @param maxPageTokens  the longest page text sent in one call; a longer page (a very long
 *                       conversation session) is cut, and the cut is said in the prompt
 */
@ConfigurationProperties("lorekeeper.memorizer")
record MemorizerSettings(
        @DefaultValue("3000") int contextTokens,
        @DefaultValue("12000") int maxPageTokens) {
}
