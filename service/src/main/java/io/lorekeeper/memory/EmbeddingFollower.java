package io.lorekeeper.memory;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.PreDestroy;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Keeps this replica's {@link Embeddings} on the model the stored vectors are: every follow interval it
 * reads the stored model's generation and whether a change is switching. While one switches, embedding
 * waits; once the generation moved on, this replica embeds with the new model, or refuses to embed at
 * all, saying why, when it does not know it (its alternatives lack it).
 */
@Component
class EmbeddingFollower {

    private static final Logger log = LoggerFactory.getLogger(EmbeddingFollower.class);

    private final JdbcClient jdbc;
    private final Embeddings embeddings;
    private final EmbeddingModels models;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("embedding-follower").daemon().factory());

    EmbeddingFollower(JdbcClient jdbc, Embeddings embeddings, EmbeddingModels models, EmbeddingSettings settings) {
        this.jdbc = jdbc;
        this.embeddings = embeddings;
        this.models = models;
        long every = settings.followInterval().toMillis();
        timer.scheduleWithFixedDelay(this::followQuietly, every, every, TimeUnit.MILLISECONDS);
    }

    @PreDestroy
    void stop() {
        timer.shutdownNow();
    }

    private record Seen(String name, long generation, boolean switching) {}

    private void followQuietly() {
        try {
            follow();
        } catch (RuntimeException e) {
            // the database away for a moment: the next tick reads again
            log.debug("could not read the stored embedding model: {}", e.getMessage());
        }
    }

    /** One look at the stored model; public to the package so that tests need not wait for the timer. */
    void follow() {
        Seen seen = jdbc.sql("""
                        SELECT m.name, m.generation,
                               EXISTS (SELECT 1 FROM embedding_change WHERE state = 'SWITCHING')
                        FROM embedding_model m""")
                .query((rs, n) -> new Seen(rs.getString(1), rs.getLong(2), rs.getBoolean(3)))
                .optional()
                .orElse(null);
        if (seen == null) {
            return;
        }
        if (seen.generation() > embeddings.generation()) {
            models.named(seen.name())
                    .ifPresentOrElse(
                            model -> {
                                embeddings.use(model, seen.generation());
                                log.info(
                                        "Embedding with {} (generation {}): the stored vectors are its",
                                        seen.name(),
                                        seen.generation());
                            },
                            () -> {
                                String reason = "the stored vectors are now " + seen.name()
                                        + "'s, a model this replica does not know (add it to lorekeeper.embedding.alternatives"
                                        + " or configure it): it will not embed or search until it does";
                                embeddings.refuse(reason);
                                log.error(reason);
                            });
        } else if (seen.switching()) {
            embeddings.hold();
        } else {
            embeddings.reopen();
        }
    }
}
