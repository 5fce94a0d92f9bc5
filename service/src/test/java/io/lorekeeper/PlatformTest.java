package io.lorekeeper;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.lorekeeper.support.Api;
import io.lorekeeper.support.IntegrationTest;

@IntegrationTest
class PlatformTest {

    /** Regenerate the committed spec with {@code -Dlorekeeper.openapi.write=true}. */
    private static final Path SPEC = Path.of("api", "openapi.yaml");

    @Autowired
    Api api;

    @Test
    void probesReportUpIncludingTheDatabase() {
        assertThat(api.get("/actuator/health/liveness").json().get("status").asString())
                .isEqualTo("UP");
        var readiness = api.get("/actuator/health/readiness").json();
        assertThat(readiness.get("status").asString()).isEqualTo("UP");
        assertThat(readiness.get("components").get("database").get("status").asString())
                .isEqualTo("UP");
    }

    @Test
    void exposesPrometheusMetrics() {
        api.get("/actuator/health");
        Api.Response metrics = api.get("/actuator/prometheus");

        assertThat(metrics.status()).isEqualTo(200);
        assertThat(metrics.body()).contains("jvm_memory_used_bytes").contains("http_server_requests");
        // Spring Security's per-filter observations cost 3-5% of a busy search service's CPU: switched off
        assertThat(metrics.body()).doesNotContain("spring_security_");
    }

    @Test
    void theCommittedOpenApiSpecMatchesTheRunningService() throws IOException {
        String running =
                api.get("/v3/api-docs.yaml").body().replaceAll("http://localhost:\\d+", "http://localhost:8080");
        if (Boolean.getBoolean("lorekeeper.openapi.write")) {
            Files.createDirectories(SPEC.getParent());
            Files.writeString(SPEC, running, StandardCharsets.UTF_8);
        }
        assertThat(SPEC)
                .as("api/openapi.yaml is missing; run the tests once with -Dlorekeeper.openapi.write=true")
                .exists();
        assertThat(running)
                .as("api/openapi.yaml is stale; regenerate with -Dlorekeeper.openapi.write=true")
                .isEqualTo(Files.readString(SPEC, StandardCharsets.UTF_8));
    }
}
