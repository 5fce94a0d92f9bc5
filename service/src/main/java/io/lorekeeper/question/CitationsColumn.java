package io.lorekeeper.question;

import java.util.List;

import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;

import io.lorekeeper.strategy.Citation;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/** A question's verified citations in its {@code jsonb} column (see {@link io.lorekeeper.platform.JsonColumn}). */
@Converter
class CitationsColumn implements AttributeConverter<List<Citation>, String> {

    // Lenient: rows written by an older version may carry fields this one no longer knows.
    private static final JsonMapper JSON = JsonMapper.builder()
            .disable(tools.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    @Override
    public String convertToDatabaseColumn(List<Citation> citations) {
        return citations == null ? null : JSON.writeValueAsString(citations);
    }

    @Override
    public List<Citation> convertToEntityAttribute(String text) {
        return text == null ? null : JSON.readValue(text, new TypeReference<List<Citation>>() {});
    }
}
