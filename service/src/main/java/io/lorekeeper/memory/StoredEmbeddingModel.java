package io.lorekeeper.memory;

import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionOperations;

/**
 * The model the database's vectors were made with ({@code embedding_model}, one row), checked at start
 * against the model this replica is configured with. Vectors of two models are not comparable, so a
 * mismatch never gets as far as mixing them: the replica refuses to start and says which model the
 * database holds, while replicas on the stored model go on serving (a rolling update to another model
 * stops at its first new pod). The first replica to embed into an empty database records its model,
 * and the vector columns take its dimension ({@link VectorColumns}).
 */
@Component
class StoredEmbeddingModel {

    private static final Logger log = LoggerFactory.getLogger(StoredEmbeddingModel.class);
    /** Serialises replicas starting together on the check and the schema change it may make. */
    private static final long LOCK = 0x4c4b_454d_424cL;

    private final EmbeddingModelSettings settings;

    StoredEmbeddingModel(
            JdbcClient jdbc,
            TransactionOperations transactions,
            EmbeddingModel model,
            EmbeddingModelSettings settings,
            EmbeddingEndpointSettings endpoint) {
        this.settings = settings;
        check(
                jdbc,
                transactions,
                endpoint.enabled() ? endpoint.identity() : settings.files().name(),
                model.dimensions());
    }

    String passagePrefix() {
        return settings.passagePrefix();
    }

    /**
     * Records {@code name} for an empty database, giving the vector columns its dimension; refuses a
     * model other than the one whose vectors the database holds.
     */
    static void check(JdbcClient jdbc, TransactionOperations transactions, String name, int dimensions) {
        transactions.executeWithoutResult(status -> {
            jdbc.sql("SELECT pg_advisory_xact_lock(?)").param(LOCK).query().singleRow();
            Optional<String> stored = jdbc.sql(
                            "SELECT name || ' (' || dimensions || ' dimensions)' FROM embedding_model")
                    .query(String.class)
                    .optional();
            String configured = name + " (" + dimensions + " dimensions)";
            if (stored.isPresent() && !stored.get().equals(configured)) {
                throw new IllegalStateException("this database's vectors were made with the embedding model "
                        + stored.get() + ", and this replica is configured with " + configured
                        + ": vectors of two models cannot be compared, so it will not embed or search here."
                        + " Configure lorekeeper.embedding.model for the stored one, or use another database");
            }
            new VectorColumns(jdbc).follow(name, dimensions);
            jdbc.sql("INSERT INTO embedding_model (name, dimensions) VALUES (?, ?) ON CONFLICT (id) DO NOTHING")
                    .params(name, dimensions)
                    .update();
        });
        log.info("Stored vectors are {}'s ({} dimensions)", name, dimensions);
    }
}
