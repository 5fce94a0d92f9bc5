package io.lorekeeper.security;

import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import io.lorekeeper.platform.ApiDocs;
import io.lorekeeper.platform.ApiProblem;
import io.lorekeeper.platform.StorableText;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

/** The operator's API (admin key only): tenants, their keys and quotas. */
@RestController
@Tag(name = "Tenants", description = "Tenants, their API keys and quotas (admin key only)")
class TenantController {

    private static final int MAX_NAME_LENGTH = 100;

    private final Tenants tenants;
    private final ApiKeys keys;
    private final SecuritySettings settings;
    private final QuotaSettings quotas;

    TenantController(Tenants tenants, ApiKeys keys, SecuritySettings settings, QuotaSettings quotas) {
        this.tenants = tenants;
        this.keys = keys;
        this.settings = settings;
        this.quotas = quotas;
    }

    @Schema(
            description =
                    "A tenant's own quota values: absent takes the service default (lorekeeper.quotas.*), 0 lifts the limit")
    record QuotaValues(Long requestsPerMinute, Long storedBytes, Long documents, Long llmTokensPerDay) {}

    record CreateTenant(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            String name,

            QuotaValues quotas) {}

    record TenantView(
            UUID id,
            String name,
            Instant createdAt,

            @Schema(description = "The quotas in force (0: no limit)")
            Quotas quotas,

            @Schema(description = "The tenant's own values; null fields take the defaults")
            QuotaValues overrides) {}

    record CreateKey(
            String name,

            @Schema(description = "May start evaluations (POST /v1/evaluations)")
            Boolean canEvaluate) {}

    @PostMapping("/v1/tenants")
    @Operation(
            operationId = "createTenant",
            description =
                    "Admin key only. A tenant owns documents, questions, evaluations and keys; its quotas override `lorekeeper.quotas.*` where given. The first key is created with POST /v1/tenants/{id}/keys.",
            summary = "Create a tenant, optionally with its own quotas")
    @ApiResponse(responseCode = "201", description = "Created")
    ResponseEntity<TenantView> create(@RequestBody CreateTenant request) {
        requireKeysMode();
        if (request == null) {
            throw ApiProblem.invalid("body", "a JSON body with `name` is required");
        }
        String name = request.name() == null ? "" : request.name().strip();
        if (name.isEmpty() || name.length() > MAX_NAME_LENGTH || name.chars().anyMatch(Character::isISOControl)) {
            throw ApiProblem.invalid(
                    "name", "name must be 1 to " + MAX_NAME_LENGTH + " characters without control characters");
        }
        StorableText.require("name", name);
        Quotas.Overrides overrides = overrides(request.quotas());
        Tenant tenant;
        try {
            tenant = tenants.create(name, overrides);
        } catch (DataIntegrityViolationException taken) { // the unique name: the only constraint a new tenant can break
            throw ApiProblem.conflict(
                    "duplicate-name", "Name taken", "a tenant named '" + name + "' exists already", "name");
        }
        return ResponseEntity.created(URI.create("/v1/tenants/" + tenant.id())).body(view(tenant));
    }

    @GetMapping("/v1/tenants")
    @Operation(
            operationId = "listTenants",
            description =
                    "Admin key only. Every tenant with when it was created, the quotas in force and its own overrides (null fields take the configured defaults).",
            summary = "All tenants, oldest first")
    List<TenantView> list() {
        requireKeysMode();
        return tenants.list().stream().map(this::view).toList();
    }

    @GetMapping("/v1/tenants/{id}")
    @Operation(
            operationId = "getTenant",
            description =
                    "Admin key only. The tenant's name, when it was created, the quotas in force and its own overrides (null fields take the configured defaults).",
            summary = "One tenant and its quotas")
    TenantView get(@PathVariable UUID id) {
        requireKeysMode();
        return view(find(id));
    }

    @DeleteMapping("/v1/tenants/{id}")
    @Operation(
            operationId = "deleteTenant",
            summary = "Delete the tenant and everything it owns",
            description =
                    "Its keys, documents with every memory built from them, questions, traces, evaluations, usage records and cached replies.")
    @ApiResponse(responseCode = "204", description = "Deleted")
    ResponseEntity<Void> delete(@PathVariable UUID id) {
        requireKeysMode();
        if (CurrentTenant.DEFAULT.equals(id)) {
            throw ApiProblem.conflict(
                    "default-tenant", "Default tenant", "the built-in default tenant cannot be deleted", null);
        }
        if (!tenants.delete(id)) {
            throw ApiProblem.notFound("Tenant", id);
        }
        return ResponseEntity.noContent().build();
    }

    @PostMapping("/v1/tenants/{id}/keys")
    @Operation(
            operationId = "createApiKey",
            summary = "Create an API key for the tenant",
            description = "The key is in this response only; the service keeps just its hash.")
    @ApiResponse(responseCode = "201", description = "Created; `key` is shown this once")
    ResponseEntity<ApiKeys.NewApiKey> createKey(
            @PathVariable UUID id, @RequestBody(required = false) CreateKey request) {
        requireKeysMode();
        find(id);
        String name =
                request == null || request.name() == null || request.name().isBlank()
                        ? "key"
                        : request.name().strip();
        if (name.length() > MAX_NAME_LENGTH || name.chars().anyMatch(Character::isISOControl)) {
            throw ApiProblem.invalid(
                    "name", "name must be at most " + MAX_NAME_LENGTH + " characters without control characters");
        }
        boolean canEvaluate = request != null && Boolean.TRUE.equals(request.canEvaluate());
        ApiKeys.NewApiKey issued = keys.issue(id, name, canEvaluate);
        return ResponseEntity.created(URI.create("/v1/tenants/" + id + "/keys/" + issued.id()))
                .body(issued);
    }

    @GetMapping("/v1/tenants/{id}/keys")
    @Operation(
            operationId = "listApiKeys",
            description =
                    "Admin key only. Keys are stored as hashes: only each key's prefix, permissions, creation and revocation times are shown, never the key.",
            summary = "The tenant's keys (prefix only, never the key), revoked ones with when")
    List<ApiKeys.ApiKeyView> listKeys(@PathVariable UUID id) {
        requireKeysMode();
        find(id);
        return keys.list(id);
    }

    @DeleteMapping("/v1/tenants/{id}/keys/{keyId}")
    @Operation(
            operationId = "revokeApiKey",
            summary = "Revoke a key",
            description =
                    "Refused from the next request on, on every replica (keys are not cached). A key is revoked once: revoking it again is a 409.")
    @ApiResponse(responseCode = "204", description = "Revoked")
    @ApiResponse(responseCode = "409", ref = ApiDocs.CONFLICT)
    ResponseEntity<Void> revoke(@PathVariable UUID id, @PathVariable UUID keyId) {
        requireKeysMode();
        find(id);
        if (!keys.revoke(id, keyId)) {
            throw ApiProblem.notFound("Key", keyId);
        }
        return ResponseEntity.noContent().build();
    }

    private Tenant find(UUID id) {
        return tenants.find(id).orElseThrow(() -> ApiProblem.notFound("Tenant", id));
    }

    private void requireKeysMode() {
        if (!settings.keysRequired()) {
            throw new ApiProblem(
                    ApiProblem.Kind.FORBIDDEN,
                    "authentication-off",
                    "Authentication is off",
                    "tenants and keys need an admin key: set LOREKEEPER_ADMIN_KEY (lorekeeper.security.admin-key) and restart",
                    null);
        }
    }

    private TenantView view(Tenant tenant) {
        Quotas.Overrides o = tenant.quotas();
        return new TenantView(
                tenant.id(),
                tenant.name(),
                tenant.createdAt(),
                o.over(quotas.defaults()),
                new QuotaValues(o.requestsPerMinute(), o.storedBytes(), o.documents(), o.llmTokensPerDay()));
    }

    private static Quotas.Overrides overrides(QuotaValues values) {
        if (values == null) {
            return Quotas.Overrides.NONE;
        }
        nonNegative("quotas.requestsPerMinute", values.requestsPerMinute(), Integer.MAX_VALUE);
        nonNegative("quotas.storedBytes", values.storedBytes(), Long.MAX_VALUE);
        nonNegative("quotas.documents", values.documents(), Integer.MAX_VALUE);
        nonNegative("quotas.llmTokensPerDay", values.llmTokensPerDay(), Long.MAX_VALUE);
        return new Quotas.Overrides(
                values.requestsPerMinute(), values.storedBytes(), values.documents(), values.llmTokensPerDay());
    }

    private static void nonNegative(String field, Long value, long max) {
        if (value != null && (value < 0 || value > max)) {
            throw ApiProblem.invalid(field, field + " must be between 0 (no limit) and " + max);
        }
    }
}
