package io.lorekeeper.platform;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ContextConfiguration;

import io.lorekeeper.support.Api;
import io.lorekeeper.support.TcpProxy;
import io.lorekeeper.support.TestDatabase;
import io.lorekeeper.support.TestDatabaseInitializer;

/**
 * What an orchestrator's probes read when the database goes away: the service talks to PostgreSQL
 * through a relay the test makes stop answering. Readiness turns 503 within seconds (Boot's own
 * check waited out the pool's 30 s, and answered 200 with DOWN in the body), liveness stays 200, and
 * readiness comes back once the database answers again. While starting or refusing traffic,
 * readiness is 503 too.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ContextConfiguration(initializers = ReadinessProbeTest.ThroughProxy.class)
@Import(Api.Config.class)
class ReadinessProbeTest {

    static TcpProxy proxy;

    @Autowired
    Api api;

    @Autowired
    ApplicationContext context;

    @AfterAll
    static void closeProxy() {
        if (proxy != null) {
            proxy.relay();
        }
    }

    @Test
    void readinessFailsOverHttpWithinSecondsWhenTheDatabaseStopsAnsweringAndLivenessDoesNot() {
        assertThat(api.get("/actuator/health/readiness").status()).isEqualTo(200);

        proxy.hang();
        try {
            long started = System.nanoTime();
            Api.Response readiness = awaitStatus("/actuator/health/readiness", 503, Duration.ofSeconds(10));
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            assertThat(readiness.body()).contains("DOWN").contains("database");
            assertThat(took).as("within the probe's bound, not the pool's 30 s").isLessThan(Duration.ofSeconds(10));
            assertThat(api.get("/actuator/health/liveness").status()).isEqualTo(200);
        } finally {
            proxy.relay();
        }
        awaitStatus("/actuator/health/readiness", 200, Duration.ofSeconds(60));
    }

    @Test
    void readinessIs503WhileTheServiceRefusesTraffic() {
        AvailabilityChangeEvent.publish(context, ReadinessState.REFUSING_TRAFFIC);
        try {
            Api.Response readiness = api.get("/actuator/health/readiness");
            assertThat(readiness.status()).isEqualTo(503);
            assertThat(readiness.body()).contains("OUT_OF_SERVICE");
            assertThat(api.get("/actuator/health/liveness").status()).isEqualTo(200);
        } finally {
            AvailabilityChangeEvent.publish(context, ReadinessState.ACCEPTING_TRAFFIC);
        }
        assertThat(api.get("/actuator/health/readiness").status()).isEqualTo(200);
    }

    private Api.Response awaitStatus(String path, int status, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Api.Response last;
        do {
            last = api.get(path);
            if (last.status() == status) {
                return last;
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        } while (System.nanoTime() < deadline);
        throw new AssertionError(
                path + " not " + status + " within " + timeout + ": " + last.status() + " " + last.body());
    }

    /** Points the service at a database of its own, through the relay. */
    static class ThroughProxy implements ApplicationContextInitializer<ConfigurableApplicationContext> {
        @Override
        public void initialize(ConfigurableApplicationContext context) {
            TestDatabase.Connection db = TestDatabase.sibling("readiness");
            URI uri = URI.create(db.url().substring("jdbc:".length()));
            proxy = new TcpProxy(uri.getHost(), uri.getPort());
            String proxied = db.url().replaceFirst("//[^/]+/", "//127.0.0.1:" + proxy.port() + "/");
            TestDatabaseInitializer.apply(new TestDatabase.Connection(proxied, db.username(), db.password()), context);
            TestPropertyValues.of("lorekeeper.health.database-timeout=2s").applyTo(context);
        }
    }
}
