package io.lorekeeper.security;

import java.util.UUID;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;

@RestController
@Tag(name = "About", description = "How this service is set up, as far as the caller may know")
class AboutController {

    private final SecuritySettings settings;
    private final CurrentTenant tenant;

    AboutController(SecuritySettings settings, CurrentTenant tenant) {
        this.settings = settings;
        this.tenant = tenant;
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record About(
            @Schema(
                    description = "off (no keys: every caller is the default tenant) or api-keys",
                    allowableValues = {"off", "api-keys"})
            String authentication,

            UUID tenantId,

            @Schema(description = "The caller's key kind: admin, tenant or internal; absent with authentication off")
            String caller,

            @Schema(description = "The caller's key may start evaluations")
            boolean canEvaluate,

            @Schema(description = "The caller's quotas in force (0: no limit); absent with authentication off")
            Quotas quotas) {}

    @GetMapping("/v1/about")
    @Operation(
            operationId = "about",
            description =
                    "Says whether API keys are required (`api-keys`) or not (`off`), and for the caller its tenant, the kind of its key (admin or tenant) and its quotas.",
            summary = "Authentication mode, and the calling tenant with its quotas")
    About about() {
        var caller = CurrentTenant.caller();
        return new About(
                settings.mode(),
                tenant.id(),
                caller.map(c -> c.kind().name().toLowerCase(java.util.Locale.ROOT))
                        .orElse(null),
                caller.map(Caller::canEvaluate).orElse(!settings.keysRequired()),
                caller.map(Caller::quotas).orElse(null));
    }
}
