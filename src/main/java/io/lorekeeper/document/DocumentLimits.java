package io.lorekeeper.document;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/** Intake limits; each has a property under {@code lorekeeper.documents}. */
@ConfigurationProperties("lorekeeper.documents")
record DocumentLimits(
        @DefaultValue("20MB") DataSize maxTextSize,
        @DefaultValue("500") int maxTitleLength,
        @DefaultValue("5000") int maxSessions,
        @DefaultValue("5000") int maxTurnsPerSession,
        @DefaultValue("16KB") DataSize maxMetadataSize) {
}
