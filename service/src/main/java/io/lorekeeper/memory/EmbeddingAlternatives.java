package io.lorekeeper.memory;

import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * In-process models a running deployment may move its vectors to, under {@code
 * lorekeeper.embedding.alternatives.<name>} (the name is what the stored vectors record). Every replica
 * lists the same ones: after a change, each replica embeds with the model the database names.
 *
 * @param alternatives each model by the name its vectors record: its folder or class-path base and
 *                     prefixes, or an OpenAI-compatible endpoint
 */
@ConfigurationProperties("lorekeeper.embedding")
record EmbeddingAlternatives(Map<String, Alternative> alternatives) {

    EmbeddingAlternatives {
        alternatives = alternatives == null ? Map.of() : Map.copyOf(alternatives);
    }

    /**
     * @param location      a folder with one {@code .onnx} file and its tokenizer, or {@code classpath:<base>}
     *                      (see {@link ModelFiles})
     * @param pooling       {@code cls} or {@code mean}
     * @param queryPrefix   put in front of every query ({@code "query: "} for e5)
     * @param passagePrefix put in front of every passage ({@code "passage: "} for e5)
     * @param endpoint      an OpenAI-compatible {@code /v1/embeddings} endpoint instead of an in-process model
     *                      (its {@code base-url}, {@code api-key}, {@code model}, {@code dimensions}, ...)
     */
    record Alternative(
            String location,
            @DefaultValue("cls") String pooling,
            @DefaultValue("") String queryPrefix,
            @DefaultValue("") String passagePrefix,
            EmbeddingEndpointSettings endpoint) {

        boolean remote() {
            return endpoint != null && endpoint.enabled();
        }
    }
}
