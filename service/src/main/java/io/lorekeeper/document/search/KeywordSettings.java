package io.lorekeeper.document.search;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Keyword search's settings under {@code lorekeeper.search}.
 *
 * @param keywordIndex the postings each replica keeps in memory
 */
@ConfigurationProperties("lorekeeper.search")
record KeywordSettings(@DefaultValue Index keywordIndex) {

    /**
     * @param enabled     false: every search scored in SQL, as before 2026-11-27, with no postings held (an
     *                    operational choice for a replica short of memory: see docs/operations.md)
     * @param maxPostings postings held at most; past it the documents least recently searched are dropped
     */
    record Index(
            @DefaultValue("true") boolean enabled,
            @DefaultValue("30000000") long maxPostings) {}
}
