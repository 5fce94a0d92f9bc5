package io.lorekeeper.memory;

import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionOperations;

/**
 * The model the database's vectors were made with ({@code embedding_model}, one row), checked at start.
 * Vectors of two models are not comparable, so the stored model wins: a replica embeds with it when it
 * can (its configured model, or one of its {@linkplain EmbeddingAlternatives alternatives}), and
 * otherwise refuses to start and says which model the database holds, so it never writes or searches
 * with another. The first replica on an empty database records its configured model, and the vector
 * columns take its dimension ({@link VectorColumns}). The row's generation moves on when an {@linkplain
 * EmbeddingChanges embedding change} switches the vectors to another model.
 */
@Component
class StoredEmbeddingModel {

    private static final Logger log = LoggerFactory.getLogger(StoredEmbeddingModel.class);
    /** Serialises replicas starting together on the check and the schema change it may make. */
    private static final long LOCK = 0x4c4b_454d_424cL;

    /** The stored model: its name, its vectors' dimension and how many changes the database has seen. */
    record Stored(String name, int dimensions, long generation) {
        String described() {
            return name + " (" + dimensions + " dimensions)";
        }
    }

    private final JdbcClient jdbc;
    private final EmbeddingModels.Choice atStart;
    private final long generationAtStart;

    StoredEmbeddingModel(JdbcClient jdbc, TransactionOperations transactions, EmbeddingModels models) {
        this.jdbc = jdbc;
        EmbeddingModels.Choice configured = models.configured();
        Stored stored = check(
                jdbc,
                transactions,
                configured.name(),
                configured.model().dimensions(),
                name -> models.named(name)
                        .map(c -> OptionalInt.of(c.model().dimensions()))
                        .orElse(OptionalInt.empty()));
        if (!stored.name().equals(configured.name())) {
            log.warn(
                    "This replica is configured with the embedding model {}, but the database's vectors are {}'s:"
                            + " embedding with {}, one of its alternatives",
                    configured.name(),
                    stored.name(),
                    stored.name());
        }
        this.atStart = models.named(stored.name()).orElseThrow();
        this.generationAtStart = stored.generation();
    }

    EmbeddingModels.Choice atStart() {
        return atStart;
    }

    long generationAtStart() {
        return generationAtStart;
    }

    /** The row as it is now; empty before anything was embedded. */
    Optional<Stored> current() {
        return read(jdbc);
    }

    /** The check of a replica that knows one model only, {@code name}. */
    static Stored check(JdbcClient jdbc, TransactionOperations transactions, String name, int dimensions) {
        return check(
                jdbc,
                transactions,
                name,
                dimensions,
                n -> n.equals(name) ? OptionalInt.of(dimensions) : OptionalInt.empty());
    }

    /**
     * Records the configured model for an empty database, giving the vector columns its dimension; for a
     * database holding vectors, the stored model if this replica knows it (with the dimension stored),
     * else a refusal that names both.
     *
     * @param known the dimension of each model this replica can embed with; empty for one it cannot
     */
    static Stored check(
            JdbcClient jdbc,
            TransactionOperations transactions,
            String configured,
            int configuredDimensions,
            Function<String, OptionalInt> known) {
        Stored result = transactions.execute(status -> {
            jdbc.sql("SELECT pg_advisory_xact_lock(?)").param(LOCK).query().singleRow();
            Optional<Stored> stored = read(jdbc);
            if (stored.isEmpty()) {
                new VectorColumns(jdbc).follow(configured, configuredDimensions);
                jdbc.sql("INSERT INTO embedding_model (name, dimensions) VALUES (?, ?)")
                        .params(configured, configuredDimensions)
                        .update();
                return new Stored(configured, configuredDimensions, 1);
            }
            Stored held = stored.get();
            OptionalInt dimensions = known.apply(held.name());
            if (dimensions.isEmpty() || dimensions.getAsInt() != held.dimensions()) {
                throw new IllegalStateException("this database's vectors were made with the embedding model "
                        + held.described() + ", and this replica is configured with " + configured + " ("
                        + configuredDimensions + " dimensions)"
                        + (dimensions.isEmpty() ? "" : " and finds " + held.name() + " making " + dimensions.getAsInt())
                        + ": vectors of two models cannot be compared, so it will not embed or search here."
                        + " Configure lorekeeper.embedding.model (or an alternative) for the stored one,"
                        + " or use another database");
            }
            // a table a later migration added starts at the migration's dimension
            new VectorColumns(jdbc).follow(held.name(), held.dimensions());
            return held;
        });
        log.info("Stored vectors are {}, generation {}", result.described(), result.generation());
        return result;
    }

    private static Optional<Stored> read(JdbcClient jdbc) {
        return jdbc.sql("SELECT name, dimensions, generation FROM embedding_model")
                .query((rs, n) -> new Stored(rs.getString(1), rs.getInt(2), rs.getLong(3)))
                .optional();
    }
}
