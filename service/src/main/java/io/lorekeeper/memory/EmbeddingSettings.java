package io.lorekeeper.memory;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * @param threads           parallel ONNX sessions; each runs one intra-op thread (see {@link OnnxEmbeddingModel})
 * @param batchSize         chunks embedded and written per checkpoint of the embed stage
 * @param queryPrefix       instruction bge-small-en-v1.5 expects in front of short search queries
 * @param queryThreads      platform threads that embed search queries (0 or less: one per CPU core)
 * @param queryCacheSize    query vectors kept for queries asked again (0: none)
 * @param followInterval    how often a replica reads which model the stored vectors are (an embedding change
 *                          switching them tells every replica this way)
 * @param switchWait        how long embedding waits while a change switches the stored vectors
 */
@ConfigurationProperties("lorekeeper.embedding")
record EmbeddingSettings(
        @DefaultValue("0") int threads,
        @DefaultValue("64") int batchSize,

        @DefaultValue("Represent this sentence for searching relevant passages: ")
        String queryPrefix,

        @DefaultValue("0") int queryThreads,
        @DefaultValue("10000") long queryCacheSize,
        @DefaultValue("1s") java.time.Duration followInterval,
        @DefaultValue("60s") java.time.Duration switchWait) {

    int effectiveThreads() {
        return threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
    }

    int effectiveQueryThreads() {
        return queryThreads > 0 ? queryThreads : Runtime.getRuntime().availableProcessors();
    }
}
