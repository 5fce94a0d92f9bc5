package io.lorekeeper.document.ingestion;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How failed enrichment stages (LLM-built memories) are retried: the document stays READY
 * meanwhile, and after the last attempt the stage stays FAILED until a reindex names it.
 *
 * @param maxAttempts    runs per stage, the first included
 * @param initialBackoff wait before the second attempt, doubled for each later one
 * @param maxBackoff     the longest wait between attempts
 */
@ConfigurationProperties("lorekeeper.enrichment")
record EnrichmentSettings(
        @DefaultValue("5") int maxAttempts,
        @DefaultValue("30s") Duration initialBackoff,
        @DefaultValue("30m") Duration maxBackoff) {

    Duration backoff(int attempt) {
        long factor = 1L << Math.min(20, Math.max(0, attempt - 1));
        Duration wait = initialBackoff.multipliedBy(factor);
        return wait.compareTo(maxBackoff) > 0 ? maxBackoff : wait;
    }
}
