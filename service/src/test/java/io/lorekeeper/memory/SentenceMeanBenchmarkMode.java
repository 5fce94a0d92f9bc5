package io.lorekeeper.memory;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * The scale benchmark's embedding mode, {@code lorekeeper.embedding.mode=sentence-mean}: the in-process
 * model wrapped in {@link SentenceMeanEmbeddingModel}. Test code, so the service jar carries none of it:
 * {@code scripts/benchmark.sh} runs its scale and throughput phases on the test class path (where the
 * component scan finds this), and with the property absent nothing changes.
 */
@Component
@ConditionalOnProperty(name = "lorekeeper.embedding.mode", havingValue = "sentence-mean")
class SentenceMeanBenchmarkMode implements BeanPostProcessor {

    private final long cachedSentences;

    SentenceMeanBenchmarkMode(@Value("${lorekeeper.embedding.sentence-cache-size:200000}") long cachedSentences) {
        this.cachedSentences = cachedSentences;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String name) {
        if (!(bean instanceof OnnxEmbeddingModel onnx)) {
            return bean;
        }
        org.slf4j.LoggerFactory.getLogger(SentenceMeanBenchmarkMode.class)
                .warn("Embedding mode sentence-mean (benchmarks only): chunk vectors are means of sentence vectors");
        return new SentenceMeanEmbeddingModel(onnx, cachedSentences);
    }
}
