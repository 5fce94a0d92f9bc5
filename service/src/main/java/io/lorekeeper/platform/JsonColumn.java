package io.lorekeeper.platform;

import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A {@code jsonb} column as a JSON tree on an entity. Pair it with
 * {@code @ColumnTransformer(write = "?::jsonb")}: the text is bound as a string and cast by
 * PostgreSQL, so no Hibernate JSON format mapper (and no Jackson 2) is involved.
 */
@Converter
public class JsonColumn implements AttributeConverter<JsonNode, String> {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Override
    public String convertToDatabaseColumn(JsonNode value) {
        return value == null || value.isNull() ? null : JSON.writeValueAsString(value);
    }

    @Override
    public JsonNode convertToEntityAttribute(String text) {
        return text == null ? null : JSON.readTree(text);
    }
}
