package io.lorekeeper.auto;

import java.util.Map;

/** A strategy auto may pick, with the options it would run it with. */
record Candidate(String strategy, Map<String, Object> options) {

    static Candidate of(String strategy) {
        return new Candidate(strategy, Map.of());
    }

    String label() {
        return options.isEmpty() ? strategy : strategy + " " + options;
    }
}
