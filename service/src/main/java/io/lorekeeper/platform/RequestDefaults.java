package io.lorekeeper.platform;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.stereotype.Component;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.media.Schema;

/**
 * Says a request field's default in its description instead of as {@code default}. openapi-typescript
 * with its default settings ({@code defaultNonNullable}) makes every property with a {@code default}
 * required unless it sits inline in a request body, and the request schemas here are components: a
 * minimal {@code POST /v1/documents {text}} then failed to type-check for want of {@code profile}. The
 * service applies the defaults itself; a client needs to know them, not to send them.
 */
@Component
class RequestDefaults implements OpenApiCustomizer {

    private static final String SCHEMAS = "#/components/schemas/";

    @Override
    @SuppressWarnings("rawtypes")
    public void customise(OpenAPI api) {
        if (api.getPaths() == null
                || api.getComponents() == null
                || api.getComponents().getSchemas() == null) {
            return;
        }
        Map<String, Schema> schemas = api.getComponents().getSchemas();
        for (String name : requestSchemas(api, schemas)) {
            Schema<?> schema = schemas.get(name);
            if (schema == null || schema.getProperties() == null) {
                continue;
            }
            schema.getProperties().values().forEach(RequestDefaults::describeDefault);
        }
    }

    private static void describeDefault(Schema<?> property) {
        Object value = property.getDefault();
        if (value == null) {
            return;
        }
        property.setDefault(null);
        property.setDefaultSetFlag(false); // else written as "default: null"
        String said = "Default: `" + value + "`.";
        String description = property.getDescription();
        property.setDescription(
                description == null || description.isBlank() ? said : description.strip() + ". " + said);
    }

    /** The schemas a request body refers to, and those they refer to in turn. */
    @SuppressWarnings("rawtypes")
    private static Set<String> requestSchemas(OpenAPI api, Map<String, Schema> schemas) {
        Set<String> found = new LinkedHashSet<>();
        Deque<Schema<?>> todo = new ArrayDeque<>();
        api.getPaths().values().forEach(path -> {
            for (Operation operation : path.readOperations()) {
                if (operation.getRequestBody() != null
                        && operation.getRequestBody().getContent() != null) {
                    operation.getRequestBody().getContent().values().forEach(media -> {
                        if (media.getSchema() != null) {
                            todo.add(media.getSchema());
                        }
                    });
                }
            }
        });
        while (!todo.isEmpty()) {
            Schema<?> schema = todo.pop();
            if (schema.get$ref() != null && schema.get$ref().startsWith(SCHEMAS)) {
                String name = schema.get$ref().substring(SCHEMAS.length());
                if (found.add(name) && schemas.get(name) != null) {
                    todo.add(schemas.get(name));
                }
                continue;
            }
            if (schema.getProperties() != null) {
                schema.getProperties().values().forEach(todo::add);
            }
            if (schema.getItems() != null) {
                todo.add(schema.getItems());
            }
            for (var parts : java.util.Arrays.asList(schema.getAllOf(), schema.getOneOf(), schema.getAnyOf())) {
                if (parts != null) {
                    parts.forEach(todo::add);
                }
            }
        }
        return found;
    }
}
