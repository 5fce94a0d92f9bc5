package io.lorekeeper.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;
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

/** With an admin key configured: who may call what, how keys look, and that only their hashes are stored. */
@SecuredIntegrationTest
class ApiKeyAuthenticationTest {

    @Autowired
    Api api;

    @Autowired
    JdbcClient jdbc;

    private static void assertUnauthorized(Api.Response response, boolean keyPresented) {
        assertThat(response.status()).as(response.body()).isEqualTo(401);
        assertThat(response.header("Content-Type")).startsWith("application/problem+json");
        assertThat(response.header("WWW-Authenticate")).startsWith("Bearer realm=\"lorekeeper\"");
        assertThat(response.header("WWW-Authenticate").contains("invalid_token"))
                .isEqualTo(keyPresented);
        assertThat(response.json().get("status").asInt()).isEqualTo(401);
        assertThat(response.json().get("type").asString()).endsWith("/unauthorized");
    }

    @Test
    void withoutAKeyOrWithAWrongOneEveryV1EndpointIs401() {
        Tenancy.TenantWithKey tenant = new Tenancy(api).tenant("auth");
        UUID someId = UUID.randomUUID();
        String wrong = ApiKeys.newKey();
        for (Api client : List.of(api, api.withKey(wrong), api.withKey("not-even-a-lorekeeper-key"))) {
            boolean presented = client != api;
            assertUnauthorized(client.get("/v1/documents"), presented);
            assertUnauthorized(client.get("/v1/documents/" + someId), presented);
            assertUnauthorized(client.post("/v1/documents", Map.of("text", "hello")), presented);
            assertUnauthorized(
                    client.post("/v1/search", Map.of("documentIds", List.of(someId), "query", "x")), presented);
            assertUnauthorized(client.get("/v1/questions/" + someId + "/events"), presented);
            assertUnauthorized(client.get("/v1/usage"), presented);
            assertUnauthorized(client.get("/v1/strategies"), presented);
            assertUnauthorized(client.get("/v1/about"), presented);
            assertUnauthorized(client.get("/v1/tenants"), presented);
            assertUnauthorized(client.get("/mcp"), presented);
        }
        // The problem shows at most the prefix of a presented key, never the key.
        Api.Response refused = api.withKey(wrong).get("/v1/documents");
        assertThat(refused.body()).doesNotContain(wrong).contains(wrong.substring(0, 11) + "…");
        assertThat(api.withKey("sk-secret-pasted-by-mistake")
                        .get("/v1/documents")
                        .body())
                .doesNotContain("sk-secret");
        // The right key is let in.
        assertThat(tenant.api().get("/v1/documents").status()).isEqualTo(200);
    }

    @Test
    void theXApiKeyHeaderWorksLikeBearer() throws Exception {
        Tenancy.TenantWithKey tenant = new Tenancy(api).tenant("header");
        var http = java.net.http.HttpClient.newHttpClient();
        var response = http.send(
                java.net.http.HttpRequest.newBuilder(api.uri("/v1/about"))
                        .header("X-API-Key", tenant.key())
                        .GET()
                        .build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains(tenant.id().toString());
    }

    @Test
    void healthTheOpenApiDocumentSwaggerAndTheConsoleStayOpen() {
        assertThat(api.get("/actuator/health").status()).isEqualTo(200);
        assertThat(api.get("/actuator/health/readiness").status()).isEqualTo(200);
        // The spec's own config: generating the whole spec once more would cost this context seconds (OpenModeTest
        // reads it).
        assertThat(api.get("/v3/api-docs/swagger-config").status()).isEqualTo(200);
        assertThat(api.get("/swagger-ui.html").status()).isIn(200, 302);
        assertThat(api.get("/").status()).isNotIn(401, 403);
    }

    @Test
    void aboutNamesTheModeAndTheCallersTenant() {
        Tenancy.TenantWithKey tenant = new Tenancy(api).tenant("about", Map.of("documents", 7), false);
        JsonNode about = tenant.api().get("/v1/about").json();
        assertThat(about.get("authentication").asString()).isEqualTo("api-keys");
        assertThat(about.get("tenantId").asString()).isEqualTo(tenant.id().toString());
        assertThat(about.get("caller").asString()).isEqualTo("tenant");
        assertThat(about.get("canEvaluate").asBoolean()).isFalse();
        assertThat(about.get("quotas").get("documents").asLong()).isEqualTo(7);
        JsonNode admin =
                api.withKey(SecuredIntegrationTest.ADMIN_KEY).get("/v1/about").json();
        assertThat(admin.get("caller").asString()).isEqualTo("admin");
        assertThat(admin.get("tenantId").asString()).isEqualTo(CurrentTenant.DEFAULT.toString());
    }

    @Test
    void onlyTheAdminKeyManagesTenantsAndOnlyAllowedKeysStartEvaluations() {
        Tenancy tenancy = new Tenancy(api);
        Tenancy.TenantWithKey plain = tenancy.tenant("plain");
        Tenancy.TenantWithKey evaluator = tenancy.tenant("evaluator", null, true);
        for (Api.Response denied : List.of(
                plain.api().get("/v1/tenants"),
                plain.api().post("/v1/tenants", Map.of("name", "mine")),
                plain.api().post("/v1/tenants/" + plain.id() + "/keys", Map.of()),
                plain.api().delete("/v1/tenants/" + plain.id()),
                plain.api().post("/v1/evaluations", Map.of("dataset", "jsonl")))) {
            assertThat(denied.status()).as(denied.body()).isEqualTo(403);
            assertThat(denied.header("Content-Type")).startsWith("application/problem+json");
        }
        // Allowed to evaluate: the request reaches validation (and fails there, on its own merits).
        Api.Response validated = evaluator
                .api()
                .post("/v1/evaluations", Map.of("dataset", "nope", "path", "x", "strategies", List.of("extractive")));
        assertThat(validated.status()).isEqualTo(400);
        assertThat(validated.json().get("field").asString()).isEqualTo("dataset");
        // Reading one's evaluations needs no permission.
        assertThat(plain.api().get("/v1/evaluations/" + UUID.randomUUID()).status())
                .isEqualTo(404);
    }

    @Test
    void theAdminApiCreatesListsAndRevokesKeysAndRefusesBadInput() {
        Api admin = api.withKey(SecuredIntegrationTest.ADMIN_KEY);
        Tenancy.TenantWithKey tenant = new Tenancy(api).tenant("admin-api");
        assertThat(admin.post("/v1/tenants", Map.of("name", tenant.name())).status())
                .isEqualTo(409);
        // Names and quota values out of bounds are TenantControllerTest's.
        assertThat(admin.get("/v1/tenants/" + UUID.randomUUID()).status()).isEqualTo(404);
        assertThat(admin.post("/v1/tenants/" + UUID.randomUUID() + "/keys", Map.of())
                        .status())
                .isEqualTo(404);
        assertThat(admin.delete("/v1/tenants/" + CurrentTenant.DEFAULT).status())
                .isEqualTo(409);

        List<String> names = admin.get("/v1/tenants").json().findValuesAsString("name");
        assertThat(names).contains("default", tenant.name());

        JsonNode second = new Tenancy(api).key(tenant.id(), "ci", false);
        JsonNode keys = admin.get("/v1/tenants/" + tenant.id() + "/keys").json();
        assertThat(keys.size()).isEqualTo(2);
        assertThat(keys.toString())
                .doesNotContain(tenant.key())
                .doesNotContain(second.get("key").asString());
        assertThat(keys.findValuesAsString("prefix"))
                .containsExactlyInAnyOrder(
                        tenant.key().substring(0, 11),
                        second.get("key").asString().substring(0, 11));

        assertThat(admin.delete("/v1/tenants/" + tenant.id() + "/keys/" + tenant.keyId())
                        .status())
                .isEqualTo(204);
        assertUnauthorized(tenant.api().get("/v1/documents"), true);
        assertThat(api.withKey(second.get("key").asString())
                        .get("/v1/documents")
                        .status())
                .isEqualTo(200);
        assertThat(admin.get("/v1/tenants/" + tenant.id() + "/keys")
                        .json()
                        .get(0)
                        .get("revokedAt")
                        .isNull())
                .isFalse();
        Api.Response again = admin.delete("/v1/tenants/" + tenant.id() + "/keys/" + tenant.keyId());
        assertThat(again.status()).as("a key is revoked once").isEqualTo(409);
        assertThat(again.json().get("state").asString()).isEqualTo("REVOKED");
        assertThat(admin.delete("/v1/tenants/" + tenant.id() + "/keys/" + UUID.randomUUID())
                        .status())
                .isEqualTo(404);
        // A key id of one tenant under another tenant's path is not found either.
        Tenancy.TenantWithKey other = new Tenancy(api).tenant("admin-api-other");
        assertThat(admin.delete("/v1/tenants/" + other.id() + "/keys/"
                                + second.get("id").asString())
                        .status())
                .isEqualTo(404);
        assertThat(api.withKey(second.get("key").asString())
                        .get("/v1/documents")
                        .status())
                .isEqualTo(200);
    }

    @Test
    void keysAreLongRandomAndStoredOnlyAsTheirHash() throws Exception {
        Tenancy.TenantWithKey tenant = new Tenancy(api).tenant("hashes");
        String key = tenant.key();
        assertThat(key).startsWith("lk_").hasSize(3 + 43);
        assertThat(Base64.getUrlDecoder().decode(key.substring(3))).hasSize(32);
        assertThat(new Tenancy(api).key(tenant.id(), "again", false).get("key").asString())
                .isNotEqualTo(key);

        byte[] expected = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
        byte[] stored = jdbc.sql("SELECT key_hash FROM api_key WHERE id = ?")
                .param(tenant.keyId())
                .query(byte[].class)
                .single();
        assertThat(stored).isEqualTo(expected);
        // No column of any key row, read as text, holds a key's secret part.
        List<String> rows =
                jdbc.sql("SELECT k::text FROM api_key k").query(String.class).list();
        assertThat(rows).isNotEmpty();
        String secretPart = key.substring(11);
        assertThat(rows).noneMatch(row -> row.contains(secretPart) || row.contains(key));
        assertThat(rows).noneMatch(row -> row.contains(HexFormat.of().formatHex(key.getBytes(StandardCharsets.UTF_8))));
    }
}
