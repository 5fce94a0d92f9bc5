package io.lorekeeper.security;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** Times written to the tenancy rows: truncated to what {@code timestamptz} keeps, so a response shows what a later read returns. */
final class Timestamps {

    private Timestamps() {}

    static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }
}
