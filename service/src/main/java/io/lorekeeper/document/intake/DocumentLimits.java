package io.lorekeeper.document.intake;

import java.nio.charset.StandardCharsets;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

import io.lorekeeper.platform.ApiProblem;

/**
 * Intake limits; each has a property under {@code lorekeeper.documents}. A request over one is
 * refused with a problem naming the field.
 *
 * @param maxTextSize        the largest text, in UTF-8 bytes (413 above it)
 * @param maxTitleLength     the longest title, in characters
 * @param maxSessions        the most sessions a conversation may hold, appended ones included
 * @param maxTurnsPerSession the most turns one session may hold
 * @param maxMetadataSize    the largest metadata object, as JSON
 */
@ConfigurationProperties("lorekeeper.documents")
public record DocumentLimits(
        @DefaultValue("20MB") DataSize maxTextSize,
        @DefaultValue("500") int maxTitleLength,
        @DefaultValue("5000") int maxSessions,
        @DefaultValue("5000") int maxTurnsPerSession,
        @DefaultValue("16KB") DataSize maxMetadataSize) {

    /** Refuses a text over {@code maxTextSize} UTF-8 bytes with 413, naming {@code field}. */
    void checkTextSize(String field, String text) {
        long limit = maxTextSize.toBytes();
        // Cheap bound first: a UTF-8 byte is at least one char, at most three per UTF-16 unit.
        if (text.length() > limit
                || (text.length() * 3L > limit && text.getBytes(StandardCharsets.UTF_8).length > limit)) {
            throw ApiProblem.tooLarge(field, "the text is larger than the limit of " + maxTextSize);
        }
    }
}
