package io.lorekeeper.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import tools.jackson.databind.JsonNode;

/** Creates tenants and keys through the admin API, as an operator would. */
public final class Tenancy {

    /** A tenant with one key, and a client that sends it. */
    public record TenantWithKey(UUID id, String name, UUID keyId, String key, Api api) {}

    private final Api admin;

    public Tenancy(Api api) {
        this.admin = api.withKey(SecuredIntegrationTest.ADMIN_KEY);
    }

    public Api admin() {
        return admin;
    }

    public TenantWithKey tenant(String name) {
        return tenant(name, null, false);
    }

    /**
     * @param quotas the tenant's own quotas, or null for the defaults
     */
    public TenantWithKey tenant(String name, Map<String, Object> quotas, boolean canEvaluate) {
        Map<String, Object> body = new LinkedHashMap<>();
        // Names are unique; test classes share one database.
        String unique = name + "-" + UUID.randomUUID().toString().substring(0, 8);
        body.put("name", unique);
        if (quotas != null) {
            body.put("quotas", quotas);
        }
        Api.Response created = admin.post("/v1/tenants", body);
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        UUID id = UUID.fromString(created.json().get("id").asString());
        JsonNode key = key(id, "first", canEvaluate);
        String secret = key.get("key").asString();
        return new TenantWithKey(id, unique, UUID.fromString(key.get("id").asString()), secret, admin.withKey(secret));
    }

    public JsonNode key(UUID tenantId, String name, boolean canEvaluate) {
        Api.Response created =
                admin.post("/v1/tenants/" + tenantId + "/keys", Map.of("name", name, "canEvaluate", canEvaluate));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        return created.json();
    }
}
