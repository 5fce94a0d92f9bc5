package io.lorekeeper.memory;

import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class EmbeddingConfig {

    @Bean
    @ConditionalOnMissingBean(EmbeddingModel.class)
    EmbeddingModel embeddingModel(EmbeddingSettings settings) {
        OnnxEmbeddingModel onnx = new OnnxEmbeddingModel(settings.effectiveThreads());
        return switch (settings.mode()) {
            case "passage" -> onnx;
            case "sentence-mean" -> new SentenceMeanEmbeddingModel(onnx, settings.sentenceCacheSize());
            default -> throw new IllegalStateException(
                    "lorekeeper.embedding.mode must be passage or sentence-mean (benchmarks only), not " + settings.mode());
        };
    }
}
