package io.lorekeeper.llm;

import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedParameterizedType;
import java.lang.reflect.AnnotatedType;
import java.lang.reflect.RecordComponent;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Negative;
import jakarta.validation.constraints.NegativeOrZero;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes the Bean Validation constraints of a reply record into its JSON schema (minimum, maximum,
 * minItems, maxItems, pattern), so that a server enforcing the schema (structured outputs) keeps the
 * model inside the bounds the code checks, instead of the code finding out afterwards. Keywords are
 * limited to those OpenAI's strict structured outputs accept.
 */
final class SchemaConstraints {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private SchemaConstraints() {}

    static String addTo(String schema, Class<?> type) {
        JsonNode root = JSON.readTree(schema);
        if (root instanceof ObjectNode object) {
            annotate(object, type);
        }
        return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root);
    }

    private static void annotate(ObjectNode schema, Class<?> type) {
        if (!type.isRecord() || !(schema.get("properties") instanceof ObjectNode properties)) {
            return;
        }
        for (RecordComponent component : type.getRecordComponents()) {
            String name = component.isAnnotationPresent(com.fasterxml.jackson.annotation.JsonProperty.class)
                    ? component
                            .getAnnotation(com.fasterxml.jackson.annotation.JsonProperty.class)
                            .value()
                    : component.getName();
            if (properties.get(name) instanceof ObjectNode property) {
                for (Annotation annotation : component.getAnnotations()) {
                    constrain(property, annotation);
                }
                annotate(property, component.getAnnotatedType());
            }
        }
    }

    private static void annotate(ObjectNode property, AnnotatedType type) {
        for (Annotation annotation : type.getAnnotations()) {
            constrain(property, annotation);
        }
        Class<?> raw = raw(type);
        if (raw != null && raw.isRecord()) {
            annotate(property, raw);
        } else if (type instanceof AnnotatedParameterizedType list
                && java.util.Collection.class.isAssignableFrom(raw)
                && property.get("items") instanceof ObjectNode items) {
            annotate(items, list.getAnnotatedActualTypeArguments()[0]);
        }
    }

    private static Class<?> raw(AnnotatedType type) {
        java.lang.reflect.Type t = type.getType();
        if (t instanceof Class<?> c) {
            return c;
        }
        return t instanceof java.lang.reflect.ParameterizedType p && p.getRawType() instanceof Class<?> c ? c : null;
    }

    private static void constrain(ObjectNode property, Annotation annotation) {
        switch (annotation) {
            case Min min -> property.put("minimum", min.value());
            case Max max -> property.put("maximum", max.value());
            case DecimalMin min -> property.put("minimum", Double.parseDouble(min.value()));
            case DecimalMax max -> property.put("maximum", Double.parseDouble(max.value()));
            case Positive ignored ->
                property.put(isInteger(property) ? "minimum" : "exclusiveMinimum", isInteger(property) ? 1 : 0);
            case PositiveOrZero ignored -> property.put("minimum", 0);
            case Negative ignored ->
                property.put(isInteger(property) ? "maximum" : "exclusiveMaximum", isInteger(property) ? -1 : 0);
            case NegativeOrZero ignored -> property.put("maximum", 0);
            case Pattern pattern -> property.put("pattern", pattern.regexp());
            case SchemaEnum values -> {
                var list = property.putArray("enum");
                for (String v : values.value()) {
                    list.add(v);
                }
                if (hasType(property, "null")) {
                    list.addNull();
                }
            }
            case Size size
            when isArray(property) -> {
                if (size.min() > 0) {
                    property.put("minItems", size.min());
                }
                if (size.max() < Integer.MAX_VALUE) {
                    property.put("maxItems", size.max());
                }
            }
            default -> {}
        }
    }

    private static boolean isInteger(ObjectNode property) {
        return hasType(property, "integer");
    }

    private static boolean isArray(ObjectNode property) {
        return hasType(property, "array");
    }

    private static boolean hasType(ObjectNode property, String wanted) {
        JsonNode type = property.get("type");
        if (type == null) {
            return false;
        }
        if (type.isArray()) {
            for (JsonNode t : type) {
                if (wanted.equals(t.asString())) {
                    return true;
                }
            }
            return false;
        }
        return wanted.equals(type.asString());
    }
}
