package io.lorekeeper.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.lorekeeper.support.Api;
import io.lorekeeper.support.IntegrationTest;
import tools.jackson.databind.JsonNode;

/** Without an admin key (the configuration of every other integration test): no keys, one default tenant, no admin API. */
@IntegrationTest
class OpenModeTest {

    @Autowired
    Api api;

    @Test
    void everyCallerIsTheDefaultTenantAndAboutSaysAuthenticationIsOff() {
        JsonNode about = api.get("/v1/about").json();
        assertThat(about.get("authentication").asString()).isEqualTo("off");
        assertThat(about.get("tenantId").asString()).isEqualTo(CurrentTenant.DEFAULT.toString());
        assertThat(about.has("quotas")).isFalse();
        // A key sent anyway changes nothing: it is not even looked at.
        JsonNode withKey = api.withKey(ApiKeys.newKey()).get("/v1/about").json();
        assertThat(withKey.get("tenantId").asString()).isEqualTo(CurrentTenant.DEFAULT.toString());
    }

    @Test
    void theSpecDeclaresTheKeySchemesAndTheRefusalsOfEveryOperation() {
        JsonNode spec = api.get("/v3/api-docs").json();
        assertThat(spec.at("/components/securitySchemes/apiKey/scheme").asString())
                .isEqualTo("bearer");
        assertThat(spec.at("/components/securitySchemes/apiKeyHeader/name").asString())
                .isEqualTo("X-API-Key");
        java.util.List<String> missing = new java.util.ArrayList<>();
        spec.get("paths")
                .properties()
                .forEach(path -> path.getValue().properties().forEach(operation -> {
                    for (String status : java.util.List.of("401", "404", "429")) {
                        JsonNode response = operation.getValue().at("/responses/" + status);
                        if (response.has("$ref")) { // a shared response of the platform's (components/responses)
                            response = spec.at(response.get("$ref").asString().substring(1));
                        }
                        if (!response.at("/content").has("application/problem+json")) {
                            missing.add(operation.getKey() + " " + path.getKey() + " " + status);
                        }
                    }
                }));
        assertThat(missing).isEmpty();
        assertThat(spec.at("/paths/~1v1~1tenants/post/responses/403").isMissingNode())
                .isFalse();
        assertThat(spec.at("/paths/~1v1~1documents~1{id}/get/responses/429/headers/Retry-After")
                        .isMissingNode())
                .isFalse();
    }

    @Test
    void theAdminApiExplainsThatItNeedsAnAdminKey() {
        for (Api.Response refused :
                java.util.List.of(api.get("/v1/tenants"), api.post("/v1/tenants", Map.of("name", "x")))) {
            assertThat(refused.status()).isEqualTo(403);
            assertThat(refused.header("Content-Type")).startsWith("application/problem+json");
            assertThat(refused.json().get("type").asString()).endsWith("/authentication-off");
            assertThat(refused.json().get("detail").asString()).contains("LOREKEEPER_ADMIN_KEY");
        }
    }
}
