package io.lorekeeper.retrieval;

import java.util.function.Supplier;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

/**
 * A search as an observation: a {@code search <mode>} span under the step or request that asked, and the
 * {@code lorekeeper.search} timer by mode. A hybrid search's vector and keyword rankings are searches of
 * their own inside it; no query text is recorded.
 */
final class SearchObservation {

    static final String NAME = "lorekeeper.search";

    private SearchObservation() {}

    static <T> T observe(ObservationRegistry registry, String mode, Supplier<T> search) {
        return Observation.createNotStarted(NAME, registry)
                .contextualName("search " + mode)
                .lowCardinalityKeyValue("mode", mode)
                .observe(search);
    }
}
