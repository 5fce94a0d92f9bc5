package io.lorekeeper.question;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How far threads reach.
 *
 * @param maxQuestions  the most questions one thread holds; another is refused (409 {@code thread-full})
 * @param turnsCarried  how many of the latest answered turns a follow-up's rewrite reads
 * @param tokensCarried how many tokens of those turns it reads at most: the oldest are left out first
 */
@ConfigurationProperties("lorekeeper.threads")
record ThreadSettings(
        @DefaultValue("100") int maxQuestions,
        @DefaultValue("5") int turnsCarried,
        @DefaultValue("2000") int tokensCarried) {}
