package io.lorekeeper.memory;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class EmbeddingConfig {

    private static final Logger log = LoggerFactory.getLogger(EmbeddingConfig.class);

    @Bean
    @ConditionalOnMissingBean(EmbeddingModel.class)
    EmbeddingModel embeddingModel(
            EmbeddingSettings settings, EmbeddingModelSettings model, EmbeddingEndpointSettings endpoint) {
        if (endpoint.enabled()) {
            log.info(
                    "Embedding with {} at {} ({} dimensions)",
                    endpoint.model(),
                    endpoint.baseUrl(),
                    endpoint.dimensions());
            return new EndpointEmbeddingModel(endpoint);
        }
        // in a container both follow its limits (CPU quota, memory): the line shows what the JVM made of them
        log.info(
                "Embedding on {} threads ({} processors available), max heap {} MiB",
                settings.effectiveThreads(),
                Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory() >> 20);
        OnnxEmbeddingModel onnx =
                new OnnxEmbeddingModel(model.files(), model.poolingMode(), settings.effectiveThreads());
        log.info("Embedding model {} ({} dimensions)", onnx.name(), onnx.dimensions());
        return onnx;
    }
}
