package io.lorekeeper.memory;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Which in-process model embeds chunks and queries, under {@code lorekeeper.embedding.model}; the query
 * instruction is {@code lorekeeper.embedding.query-prefix}.
 *
 * @param location      empty: the bundled bge-small-en-v1.5; {@code classpath:base}: {@code base.onnx} and
 *                      {@code base-tokenizer.json} on the class path; else a folder with the model's
 *                      {@code .onnx} file and {@code tokenizer.json} (see {@link ModelFiles})
 * @param name          the name the stored vectors record (default: the folder's or base's name); a
 *                      database whose vectors another model made is refused at start
 * @param pooling       {@code cls} (bge) or {@code mean} (e5, all-MiniLM): how token vectors become one
 * @param passagePrefix put in front of every passage embedded ({@code "passage: "} for e5)
 */
@ConfigurationProperties("lorekeeper.embedding.model")
record EmbeddingModelSettings(
        @DefaultValue("") String location,
        @DefaultValue("") String name,
        @DefaultValue("cls") String pooling,
        @DefaultValue("") String passagePrefix) {

    ModelFiles files() {
        return ModelFiles.resolve(location, name);
    }

    dev.langchain4j.model.embedding.onnx.PoolingMode poolingMode() {
        return switch (pooling.toLowerCase(java.util.Locale.ROOT)) {
            case "cls" -> dev.langchain4j.model.embedding.onnx.PoolingMode.CLS;
            case "mean" -> dev.langchain4j.model.embedding.onnx.PoolingMode.MEAN;
            default ->
                throw new IllegalStateException(
                        "lorekeeper.embedding.model.pooling must be cls or mean, not " + pooling);
        };
    }
}
