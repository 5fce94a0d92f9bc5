package io.lorekeeper.document;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Keyword search's settings under {@code lorekeeper.search}.
 *
 * @param keywordTextLast false: rows selected with their text while scoring, as before 2026-11-25 (the
 *                        benchmark's same-run baseline)
 * @param keywordIndex    the postings each replica keeps in memory
 */
@ConfigurationProperties("lorekeeper.search")
record KeywordSettings(
        @DefaultValue("true") boolean keywordTextLast,
        @DefaultValue Index keywordIndex) {

    /**
     * @param enabled     false: every search scored in SQL, as before 2026-11-27
     * @param maxPostings postings held at most; past it the documents least recently searched are dropped
     */
    record Index(
            @DefaultValue("true") boolean enabled,
            @DefaultValue("30000000") long maxPostings) {}
}
