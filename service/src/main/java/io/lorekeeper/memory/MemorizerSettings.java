package io.lorekeeper.memory;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The GAM memorizer under {@code lorekeeper.memorizer}.
 *
 * @param contextTokens  how much of the memory so far (the most recent memos) a memo or header call
 *                       sees, at most what the memorizer's context window holds besides the page and
 *                       the reply. The paper writes each memo from the whole memory; 24,000 tokens
 *                       hold about 150 memos, a long novel's, while bounding what each call of a
 *                       larger corpus costs
 * @param maxPageTokens  the longest page text sent in one call; a longer page (a very long
 *                       conversation session) is cut, and the cut is said in the prompt
 * @param resolveDates   memos turn relative dates ("yesterday") into dates against the page's own date
 *                       (not in GAM's paper; the {@code gam/memo-dated} prompt)
 */
@ConfigurationProperties("lorekeeper.memorizer")
record MemorizerSettings(
        @DefaultValue("24000") int contextTokens,
        @DefaultValue("12000") int maxPageTokens,
        @DefaultValue("false") boolean resolveDates) {}
