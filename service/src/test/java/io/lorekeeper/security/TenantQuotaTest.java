package io.lorekeeper.security;

import static io.lorekeeper.support.TestDocuments.aConversation;
import static io.lorekeeper.support.TestDocuments.aText;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.lorekeeper.support.Api;
import io.lorekeeper.support.SecuredIntegrationTest;
import io.lorekeeper.support.Tenancy;
import tools.jackson.databind.JsonNode;

/** Per-tenant quotas: each refusal names its limit and, for the time-based ones, when it frees up. */
@SecuredIntegrationTest
class TenantQuotaTest {

    @Autowired
    Api api;

    @Autowired
    JdbcClient jdbc;

    private static void assertQuota(Api.Response response, int status, String quota, long limit) {
        assertThat(response.status()).as(response.body()).isEqualTo(status);
        assertThat(response.header("Content-Type")).startsWith("application/problem+json");
        JsonNode problem = response.json();
        assertThat(problem.get("type").asString()).endsWith("/quota-exceeded");
        assertThat(problem.get("quota").asString()).isEqualTo(quota);
        assertThat(problem.get("limit").asLong()).isEqualTo(limit);
    }

    @Test
    void requestsPastTheRatePerMinuteAre429WithRetryAfterAndOtherTenantsAreUnaffected() {
        Tenancy tenancy = new Tenancy(api);
        Tenancy.TenantWithKey limited = tenancy.tenant("rate", Map.of("requestsPerMinute", 3), false);
        Tenancy.TenantWithKey neighbour = tenancy.tenant("rate-neighbour");
        for (int i = 0; i < 3; i++) {
            assertThat(limited.api().get("/v1/documents").status()).isEqualTo(200);
        }
        Instant before = Instant.now();
        Api.Response refused = limited.api().get("/v1/documents");
        assertQuota(refused, 429, "requests-per-minute", 3);
        long retryAfter = Long.parseLong(refused.header("Retry-After"));
        // One request's worth refills in a third of a minute.
        assertThat(retryAfter).isBetween(1L, 21L);
        Instant resetsAt = Instant.parse(refused.json().get("resetsAt").asString());
        assertThat(resetsAt).isAfter(before).isBefore(before.plusSeconds(25));
        assertThat(neighbour.api().get("/v1/documents").status()).isEqualTo(200);
        // The operator is never rate limited.
        assertThat(tenancy.admin().get("/v1/tenants/" + limited.id()).status()).isEqualTo(200);
    }

    @Test
    void documentsPastTheCountOrTheStoredBytesAre413NamingTheLimit() {
        Tenancy tenancy = new Tenancy(api);
        // Another tenant's documents, created here rather than left behind by other tests: they must not count.
        Tenancy.TenantWithKey neighbour = tenancy.tenant("storage-neighbour");
        for (int i = 0; i < 3; i++) {
            neighbour
                    .api()
                    .ingest(aText(i + " The neighbour's long log of the Fennick Rock light. ".repeat(8))
                            .build());
        }
        Tenancy.TenantWithKey tenant = tenancy.tenant("storage", Map.of("documents", 2, "storedBytes", 200), false);
        String first =
                "Ninety-nine bytes of text about the tide tables of Fennick Rock, kept by the keeper in his log.";
        tenant.api().ingest(aText(first).build());
        // Re-posting identical content stores nothing new, so no quota is in the way.
        assertThat(tenant.api().post("/v1/documents", aText(first).build()).status())
                .isEqualTo(200);

        Api.Response tooBig =
                tenant.api().post("/v1/documents", aText("é".repeat(60)).build());
        assertQuota(tooBig, 413, "stored-bytes", 200);
        assertThat(tooBig.json().get("used").asLong()).isEqualTo(first.length());
        assertThat(tooBig.json().get("detail").asString()).contains("120");

        UUID chat = tenant.api()
                .ingest(aConversation().session(null, "Wren", "Short.").build());
        Api.Response third =
                tenant.api().post("/v1/documents", aText("A third document.").build());
        assertQuota(third, 413, "documents", 2);
        // Appending counts the appended text against the stored bytes.
        Api.Response append = tenant.api()
                .post(
                        "/v1/documents/" + chat + "/sessions",
                        Map.of(
                                "sessions",
                                List.of(Map.of("turns", List.of(Map.of("speaker", "Ash", "text", "x".repeat(150)))))));
        assertQuota(append, 413, "stored-bytes", 200);
        assertThat(tenant.api().get("/v1/documents").json().get("total").asLong())
                .isEqualTo(2);
    }

    @Test
    void workNeedingTheModelIsRefusedOnceTheDaysTokensAreSpentUntilUtcMidnight() {
        Tenancy tenancy = new Tenancy(api);
        Tenancy.TenantWithKey tenant = tenancy.tenant("tokens", Map.of("llmTokensPerDay", 1000), false);
        UUID doc = tenant.api()
                .ingest(aText("The ferry leaves at noon and returns at six.").build());
        // Another tenant's spend today, created here rather than left behind by other tests: it must not count.
        record(tenancy.tenant("tokens-neighbour").id(), 50_000, false, Instant.now());
        // Yesterday's calls and replayed (cached) replies do not count.
        record(tenant.id(), 5000, false, Instant.now().minusSeconds(86_400 + 60));
        record(tenant.id(), 5000, true, Instant.now());
        record(tenant.id(), 600, false, Instant.now());
        assertThat(tenant.api()
                        .post("/v1/documents/" + doc + "/reindex", Map.of())
                        .status())
                .isEqualTo(202);
        tenant.api().awaitDocument(doc, "READY", java.time.Duration.ofMinutes(2));

        record(tenant.id(), 400, false, Instant.now());
        Api.Response refused = tenant.api().post("/v1/documents/" + doc + "/reindex", Map.of());
        assertQuota(refused, 429, "llm-tokens-per-day", 1000);
        assertThat(refused.json().get("used").asLong()).isEqualTo(1000);
        Instant midnight = LocalDate.now(ZoneOffset.UTC)
                .plusDays(1)
                .atStartOfDay(ZoneOffset.UTC)
                .toInstant();
        assertThat(Instant.parse(refused.json().get("resetsAt").asString())).isEqualTo(midnight);
        long retryAfter = Long.parseLong(refused.header("Retry-After"));
        assertThat(retryAfter).isBetween(1L, 86_400L);
        assertThat(Instant.now().plusSeconds(retryAfter)).isBetween(midnight.minusSeconds(5), midnight.plusSeconds(5));
        // Searching costs no tokens and goes on.
        assertThat(tenant.api()
                        .post("/v1/search", Map.of("documentIds", List.of(doc), "query", "ferry"))
                        .status())
                .isEqualTo(200);
    }

    private void record(UUID tenantId, long tokens, boolean cacheHit, Instant at) {
        jdbc.sql(
                        "INSERT INTO llm_call (tenant_id, role, profile, model, template, prompt_tokens, completion_tokens, cache_hit, outcome, at) "
                                + "VALUES (?, 'memorizer', 'default', 'm', 'gam/memo', ?, 0, ?, 'ok', ?)")
                .params(tenantId, tokens, cacheHit, java.sql.Timestamp.from(at))
                .update();
    }
}
