package io.lorekeeper.memory;

import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The model the database's vectors were made with ({@code embedding_model}, one row), checked at start
 * against the model this replica is configured with. Vectors of two models are not comparable, so a
 * mismatch never gets as far as mixing them: the replica refuses to start and says which model the
 * database holds, while replicas on the stored model go on serving (a rolling update to another model
 * stops at its first new pod). The first replica to embed into an empty database records its model.
 * Every vector column is 384-dimensional, so a model of another dimension is refused too.
 */
@Component
class StoredEmbeddingModel {

    private static final Logger log = LoggerFactory.getLogger(StoredEmbeddingModel.class);
    /** The dimension of every vector column (V1, V8, V18). */
    static final int STORED_DIMENSIONS = 384;

    private final EmbeddingModelSettings settings;

    StoredEmbeddingModel(
            JdbcClient jdbc,
            EmbeddingModel model,
            EmbeddingModelSettings settings,
            EmbeddingEndpointSettings endpoint) {
        this.settings = settings;
        check(jdbc, endpoint.enabled() ? endpoint.identity() : settings.files().name(), model.dimensions());
    }

    String passagePrefix() {
        return settings.passagePrefix();
    }

    /** Records {@code name} for an empty database; refuses one whose vectors another model made. */
    static void check(JdbcClient jdbc, String name, int dimensions) {
        if (dimensions != STORED_DIMENSIONS) {
            throw new IllegalStateException("the embedding model " + name + " makes " + dimensions
                    + "-dimensional vectors; this database's vector columns hold " + STORED_DIMENSIONS);
        }
        jdbc.sql("INSERT INTO embedding_model (name, dimensions) VALUES (?, ?) ON CONFLICT (id) DO NOTHING")
                .params(name, dimensions)
                .update();
        Optional<String> stored =
                jdbc.sql("SELECT name FROM embedding_model").query(String.class).optional();
        if (stored.isPresent() && !stored.get().equals(name)) {
            throw new IllegalStateException("this database's vectors were made with the embedding model "
                    + stored.get() + ", and this replica is configured with " + name
                    + ": vectors of two models cannot be compared, so it will not embed or search here."
                    + " Configure lorekeeper.embedding.model for " + stored.get() + ", or use another database");
        }
        log.info("Stored vectors are {}'s", name);
    }
}
