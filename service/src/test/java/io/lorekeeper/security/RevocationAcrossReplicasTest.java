package io.lorekeeper.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import io.lorekeeper.LorekeeperApplication;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.SecuredIntegrationTest;
import io.lorekeeper.support.Tenancy;
import io.lorekeeper.support.TestDatabase;

/**
 * A second service instance on its own port, sharing the database with the test context (as two
 * replicas behind a load balancer do): a key revoked through one is refused by the other at once.
 */
@SecuredIntegrationTest
class RevocationAcrossReplicasTest {

    @Autowired
    Api api;

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void aKeyRevokedOnOneReplicaIsRefusedByTheOtherWithinASecond() throws Exception {
        Tenancy tenancy = new Tenancy(api);
        Tenancy.TenantWithKey tenant = tenancy.tenant("replicas");
        try (ConfigurableApplicationContext replica = startReplica()) {
            URI documents = URI.create("http://localhost:"
                    + replica.getEnvironment().getRequiredProperty("local.server.port") + "/v1/documents");
            assertThat(status(documents, tenant.key())).isEqualTo(200);

            assertThat(tenancy.admin()
                            .delete("/v1/tenants/" + tenant.id() + "/keys/" + tenant.keyId())
                            .status())
                    .isEqualTo(204);
            long revoked = System.nanoTime();
            int status;
            do {
                status = status(documents, tenant.key());
            } while (status != 401
                    && System.nanoTime() - revoked < Duration.ofSeconds(1).toNanos());
            long tookMs = (System.nanoTime() - revoked) / 1_000_000;
            assertThat(status)
                    .as("refused by the other replica within a second (took %d ms)", tookMs)
                    .isEqualTo(401);
            assertThat(tookMs).isLessThan(1000);
            // The other replica also honours keys created after it started.
            String fresh = tenancy.key(tenant.id(), "fresh", false).get("key").asString();
            assertThat(status(documents, fresh)).isEqualTo(200);
        }
    }

    private int status(URI uri, String key) throws Exception {
        return http.send(
                        HttpRequest.newBuilder(uri)
                                .header("Authorization", "Bearer " + key)
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    /** The same application, started the way a second pod would be; it runs no jobs while the test lasts. */
    private static ConfigurableApplicationContext startReplica() {
        TestDatabase.Connection db = TestDatabase.sibling("secured");
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("server.port", 0);
        properties.put("spring.datasource.url", db.url());
        properties.put("spring.datasource.username", db.username());
        properties.put("spring.datasource.password", db.password());
        properties.put("spring.datasource.hikari.maximum-pool-size", 3);
        properties.put("spring.datasource.hikari.minimum-idle", 1);
        properties.put("lorekeeper.security.admin-key", SecuredIntegrationTest.ADMIN_KEY);
        properties.put("lorekeeper.llm.base-url", "");
        properties.put("lorekeeper.llm.api-key", "");
        properties.put("db-scheduler.polling-interval", "1h");
        properties.put("db-scheduler.immediate-execution-enabled", false);
        properties.put("db-scheduler.threads", 1);
        properties.put("logging.structured.format.console", "");
        properties.put("spring.main.lazy-initialization", true);
        properties.put("spring.main.banner-mode", "off");
        // As arguments, not builder properties: those are defaults, below application.yml's datasource.
        String[] args = properties.entrySet().stream()
                .map(e -> "--" + e.getKey() + "=" + e.getValue())
                .toArray(String[]::new);
        ConfigurableApplicationContext replica = new SpringApplicationBuilder(LorekeeperApplication.class).run(args);
        if (!db.url().equals(replica.getEnvironment().getProperty("spring.datasource.url"))) {
            replica.close();
            throw new IllegalStateException("the replica is not on the test database");
        }
        return replica;
    }
}
