package io.lorekeeper.security;

import java.util.Map;

import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;

/**
 * Declares the API-key security schemes and the refusals every {@code /v1} operation can answer
 * (401, 404, 429, and 403 where a permission is needed) in one place, so controllers document only
 * what is their own.
 */
@Configuration(proxyBeanMethods = false)
class OpenApiSecurity {

    static final String BEARER = "apiKey";
    static final String HEADER = "apiKeyHeader";
    private static final String PROBLEM = "Problem";

    @Bean
    OpenApiCustomizer securityResponses() {
        return api -> {
            Components components = api.getComponents() == null ? new Components() : api.getComponents();
            api.setComponents(components);
            components.addSecuritySchemes(
                    BEARER,
                    new SecurityScheme()
                            .type(SecurityScheme.Type.HTTP)
                            .scheme("bearer")
                            .description(
                                    "A tenant's API key (lk_...) or the admin key, as `Authorization: Bearer <key>`. "
                                            + "Needed on every /v1 operation when the service runs with keys (GET /v1/about says which)."));
            components.addSecuritySchemes(
                    HEADER,
                    new SecurityScheme()
                            .type(SecurityScheme.Type.APIKEY)
                            .in(SecurityScheme.In.HEADER)
                            .name(ApiKeyFilter.HEADER)
                            .description("The same key in the X-API-Key header"));
            mergeProblemSchema(components);
            api.setSecurity(java.util.List.of(
                    new SecurityRequirement().addList(BEARER), new SecurityRequirement().addList(HEADER)));
            if (api.getPaths() == null) {
                return;
            }
            api.getPaths().forEach((path, item) -> {
                if (!path.startsWith("/v1/")) {
                    return;
                }
                item.readOperationsMap().forEach((method, operation) -> {
                    add(
                            operation,
                            "401",
                            problem("No API key, or an unknown or revoked one (when the service runs with keys)"));
                    add(operation, "404", problem("Not found; another tenant's resources are not found either"));
                    add(
                            operation,
                            "429",
                            problem("A quota is used up (requests per minute, LLM tokens per day): "
                                            + "the problem names it with `limit` and `resetsAt`")
                                    .addHeaderObject(
                                            "Retry-After",
                                            new Header()
                                                    .description("Seconds until the request may be sent again")
                                                    .schema(new IntegerSchema())));
                    if (path.startsWith("/v1/tenants")
                            || path.startsWith("/v1/embedding-model")
                            || (path.equals("/v1/evaluations") && method.name().equals("POST"))) {
                        add(
                                operation,
                                "403",
                                problem(
                                        "The key may not do this (the admin key, or a key allowed to evaluate, is needed)"));
                    }
                });
            });
        };
    }

    private static void add(Operation operation, String status, ApiResponse response) {
        if (operation.getResponses() == null) {
            operation.setResponses(new ApiResponses());
        }
        operation.getResponses().putIfAbsent(status, response);
    }

    private static ApiResponse problem(String description) {
        return new ApiResponse()
                .description(description)
                .content(new Content()
                        .addMediaType(
                                "application/problem+json",
                                new MediaType().schema(new Schema<>().$ref("#/components/schemas/" + PROBLEM))));
    }

    /** Adds the quota members to the platform's Problem schema (or declares one, when there is none). */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private static void mergeProblemSchema(Components components) {
        Schema ours = problemSchema();
        Schema existing =
                components.getSchemas() == null ? null : components.getSchemas().get(PROBLEM);
        if (existing == null || existing.getProperties() == null) {
            components.addSchemas(PROBLEM, ours);
            return;
        }
        ((Map<String, Schema>) ours.getProperties()).forEach((name, property) -> {
            if (!existing.getProperties().containsKey(name)) {
                existing.addProperty(name, property);
            }
        });
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    private static Schema problemSchema() {
        Schema schema = new ObjectSchema()
                .description("An RFC 9457 problem; extension members depend on the type")
                .additionalProperties(true);
        Map<String, Schema> properties = new java.util.LinkedHashMap<>();
        properties.put("type", new StringSchema().format("uri"));
        properties.put("title", new StringSchema());
        properties.put("status", new IntegerSchema());
        properties.put("detail", new StringSchema());
        properties.put("instance", new StringSchema().format("uri"));
        properties.put("field", new StringSchema().description("The request field at fault"));
        properties.put("quota", new StringSchema().description("Which quota a quota-exceeded problem is about"));
        properties.put("limit", new IntegerSchema().format("int64").description("The limit of that quota"));
        properties.put(
                "resetsAt",
                new StringSchema().format("date-time").description("When a time-based quota frees up again"));
        schema.setProperties(properties);
        return schema;
    }
}
