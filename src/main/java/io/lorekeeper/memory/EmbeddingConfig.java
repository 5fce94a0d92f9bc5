package io.lorekeeper.memory;

import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.ai.embedding.EmbeddingModel;

@Configuration(proxyBeanMethods = false)
class EmbeddingConfig {

    @Bean
    @ConditionalOnMissingBean(EmbeddingModel.class)
    OnnxEmbeddingModel onnxEmbeddingModel(EmbeddingSettings settings) {
        return new OnnxEmbeddingModel(settings.effectiveThreads());
    }
}
