package io.lorekeeper.security;

import static io.lorekeeper.support.Problems.assertProblem;
import static io.lorekeeper.support.Problems.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyBoolean;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.http.MediaType;
import org.springframework.test.util.ReflectionTestUtils;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.assertj.MvcTestResult;

import io.lorekeeper.platform.IllegalTransitionException;
import io.lorekeeper.support.ControllerSlice;
import tools.jackson.databind.JsonNode;

/**
 * TenantController at the web edge, in keys mode (the slice configures an admin key; who may call it
 * is the filter chain's business, tested by ApiKeyAuthenticationTest): names and quota values refused
 * with the field at fault before a tenant is stored, the values a valid request carries reaching the
 * stores, and the 404s and 409s.
 */
@ControllerSlice
class TenantControllerTest {

    private static final Instant CREATED = Instant.parse("2026-11-25T10:00:00Z");

    @Autowired
    MockMvcTester mvc;

    @Autowired
    Tenants tenants;

    @Autowired
    ApiKeys keys;

    private final UUID id = UUID.randomUUID();

    @Test
    void namesAndQuotasOutOfBoundsAreRefusedNamingTheFieldBeforeAnyTenantIsStored() {
        assertProblem(create("{\"name\": \"  \"}"), 400, "invalid-request", "name");
        assertProblem(create("{\"name\": \"" + "n".repeat(101) + "\"}"), 400, "invalid-request", "name");
        assertProblem(create("{\"name\": \"bell\\u0007\"}"), 400, "invalid-request", "name");
        assertProblem(create("{\"quotas\": {\"documents\": 5}}"), 400, "invalid-request", "name");
        assertProblem(
                create("{\"name\": \"Acme\", \"quotas\": {\"documents\": -1}}"),
                400,
                "invalid-request",
                "quotas.documents");
        assertProblem(
                create("{\"name\": \"Acme\", \"quotas\": {\"requestsPerMinute\": 2147483648}}"),
                400,
                "invalid-request",
                "quotas.requestsPerMinute");
        assertProblem(
                create("{\"name\": \"Acme\", \"quotas\": {\"storedBytes\": \"1GB\"}}"),
                400,
                "malformed-request",
                "quotas.storedBytes");
        assertProblem(create("null"), 400, "malformed-request", null);

        verifyNoInteractions(tenants);
    }

    @Test
    void aTenantIsCreatedWithItsTrimmedNameAndOwnQuotasOverTheDefaults() {
        Quotas.Overrides own = new Quotas.Overrides(null, null, 5L, null);
        when(tenants.create("Acme", own)).thenReturn(tenant("Acme", own));

        MvcTestResult result = create("{\"name\": \"  Acme \", \"quotas\": {\"documents\": 5}}");

        assertThat(result).hasStatus(201).hasHeader("Location", "/v1/tenants/" + id);
        JsonNode tenant = json(result);
        assertThat(tenant.path("quotas").path("documents").asLong()).isEqualTo(5);
        // lorekeeper.quotas.requests-per-minute in application.yml
        assertThat(tenant.path("quotas").path("requestsPerMinute").asLong()).isEqualTo(600);
        assertThat(tenant.path("overrides").path("documents").asLong()).isEqualTo(5);
        assertThat(tenant.path("overrides").path("requestsPerMinute").isNull()).isTrue();
        verify(tenants).create("Acme", own);
    }

    @Test
    void aNameTakenIs409NamingIt() {
        when(tenants.create(anyString(), any())).thenThrow(new DuplicateKeyException("tenant_name_key"));

        JsonNode problem = assertProblem(create("{\"name\": \"Acme\"}"), 409, "duplicate-name", "name");

        assertThat(problem.path("detail").asString()).contains("Acme").doesNotContain("tenant_name_key");
    }

    @Test
    void theDefaultTenantIsNeverDeletedAndAnUnknownOneIs404() {
        when(tenants.delete(id)).thenReturn(false);

        assertProblem(
                mvc.delete().uri("/v1/tenants/{id}", CurrentTenant.DEFAULT).exchange(), 409, "default-tenant", null);
        assertProblem(mvc.delete().uri("/v1/tenants/{id}", id).exchange(), 404, "not-found", null);
        assertProblem(mvc.get().uri("/v1/tenants/{id}", id).exchange(), 404, "not-found", null);

        verify(tenants, never()).delete(CurrentTenant.DEFAULT);
    }

    @Test
    void aKeyIsIssuedOnlyForATenantThatExistsWithTheNameAndPermissionAsked() {
        UUID absent = UUID.randomUUID();
        UUID keyId = UUID.randomUUID();
        when(tenants.find(absent)).thenReturn(Optional.empty());
        when(tenants.find(id)).thenReturn(Optional.of(tenant("Acme", Quotas.Overrides.NONE)));
        when(keys.issue(id, "ci", true))
                .thenReturn(new ApiKeys.NewApiKey(keyId, "ci", "lk_abcdefgh", true, CREATED, "lk_secret"));

        assertProblem(mvc.post().uri("/v1/tenants/{id}/keys", absent).exchange(), 404, "not-found", null);
        assertProblem(
                mvc.post()
                        .uri("/v1/tenants/{id}/keys", id)
                        .contentType(MediaType.APPLICATION_JSON)
                        .content("{\"name\": \"" + "k".repeat(101) + "\"}")
                        .exchange(),
                400,
                "invalid-request",
                "name");
        verify(keys, never()).issue(any(), anyString(), anyBoolean());

        MvcTestResult issued = mvc.post()
                .uri("/v1/tenants/{id}/keys", id)
                .contentType(MediaType.APPLICATION_JSON)
                .content("{\"name\": \" ci \", \"canEvaluate\": true}")
                .exchange();
        assertThat(issued).hasStatus(201).hasHeader("Location", "/v1/tenants/" + id + "/keys/" + keyId);
        assertThat(json(issued).path("key").asString()).isEqualTo("lk_secret");

        when(keys.issue(id, "key", false))
                .thenReturn(new ApiKeys.NewApiKey(keyId, "key", "lk_abcdefgh", false, CREATED, "lk_other"));
        assertThat(mvc.post().uri("/v1/tenants/{id}/keys", id).exchange()).hasStatus(201);
        verify(keys).issue(id, "key", false);
    }

    @Test
    void revokingAKeyTheTenantDoesNotHaveIs404() {
        UUID keyId = UUID.randomUUID();
        when(tenants.find(id)).thenReturn(Optional.of(tenant("Acme", Quotas.Overrides.NONE)));
        when(keys.revoke(id, keyId)).thenReturn(false);

        assertProblem(
                mvc.delete().uri("/v1/tenants/{id}/keys/{keyId}", id, keyId).exchange(), 404, "not-found", null);
        assertProblem(
                mvc.delete().uri("/v1/tenants/{id}/keys/{keyId}", id, "first").exchange(),
                400,
                "invalid-request",
                "keyId");
    }

    @Test
    void revokingARevokedKeyIs409() {
        UUID keyId = UUID.randomUUID();
        when(tenants.find(id)).thenReturn(Optional.of(tenant("Acme", Quotas.Overrides.NONE)));
        when(keys.revoke(id, keyId))
                .thenThrow(new IllegalTransitionException(
                        "ApiKey", keyId, ApiKey.State.REVOKED, "revoke", List.of(ApiKey.State.ACTIVE)));

        assertProblem(
                mvc.delete().uri("/v1/tenants/{id}/keys/{keyId}", id, keyId).exchange(),
                409,
                "illegal-transition",
                null);
    }

    /** A stored tenant as the service returns it: the entity assigns its own id, which the test needs to know. */
    private Tenant tenant(String name, Quotas.Overrides quotas) {
        Tenant tenant = new Tenant(name, quotas, CREATED);
        ReflectionTestUtils.setField(tenant, "id", id);
        return tenant;
    }

    private MvcTestResult create(String body) {
        return mvc.post()
                .uri("/v1/tenants")
                .contentType(MediaType.APPLICATION_JSON)
                .content(body)
                .exchange();
    }
}
