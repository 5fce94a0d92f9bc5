package io.lorekeeper.platform;

import java.sql.Connection;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.sql.DataSource;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * Whether the database answers, within a bound: the readiness probe's database check. Boot's own
 * check waits for a pooled connection for as long as the pool's connection timeout (30 s), so with
 * PostgreSQL gone the probe hung past any orchestrator's timeout and never turned the pod unready.
 * This one gives up after {@code lorekeeper.health.database-timeout} (2 s) and reports DOWN, which
 * the health endpoint maps to 503. The check runs on a virtual thread of its own, which may go on
 * waiting for the pool after the answer was given.
 */
@Component("database")
class DatabaseHealth implements HealthIndicator {

    private final DataSource dataSource;
    private final Duration timeout;
    private final Executor checks = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("database-health-", 0).factory());

    DatabaseHealth(DataSource dataSource, PlatformSettings settings) {
        this.dataSource = dataSource;
        this.timeout = settings.health().databaseTimeout();
    }

    @Override
    public Health health() {
        long started = System.nanoTime();
        CompletableFuture<Boolean> valid = CompletableFuture.supplyAsync(this::valid, checks);
        try {
            boolean answered = valid.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            long ms = (System.nanoTime() - started) / 1_000_000;
            return (answered ? Health.up() : Health.down().withDetail("error", "the connection is not valid"))
                    .withDetail("ms", ms)
                    .build();
        } catch (TimeoutException slow) {
            valid.cancel(true);
            return Health.down()
                    .withDetail("error", "no answer from the database within " + timeout.toMillis() + " ms")
                    .build();
        } catch (ExecutionException failed) {
            return Health.down()
                    .withDetail("error", Failures.describe(failed.getCause()))
                    .build();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Health.down().withDetail("error", "interrupted").build();
        }
    }

    private boolean valid() {
        try (Connection connection = dataSource.getConnection()) {
            return connection.isValid((int) Math.max(1, timeout.toSeconds()));
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }
}
