package io.lorekeeper.memory;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The GAM memorizer under {@code lorekeeper.memorizer}.
 *
 * @param contextTokens  how much of the memory so far (the most recent memos) a memo or header call
 *                       sees. Unset, as much as the memorizer's context window holds besides the page
 *                       and the reply: the paper writes each memo from the whole memory, and a
 *                       novel's 120 memos (about 20K tokens) then fit a 32K window. Set it to cap the
 *                       cost of long documents; the newest memos are kept
 * @param maxPageTokens  the longest page text sent in one call; a longer page (a very long
 *                       conversation session) is cut, and the cut is said in the prompt
 */
@ConfigurationProperties("lorekeeper.memorizer")
record MemorizerSettings(
        Integer contextTokens,
        @DefaultValue("12000") int maxPageTokens) {
}
