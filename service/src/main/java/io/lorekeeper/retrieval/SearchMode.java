package io.lorekeeper.retrieval;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * How a search ranks chunks. The API, the traces and the metrics spell a mode in lower case
 * ({@link #wireName()}); this file is the only place the spellings are written, so that a new mode
 * is added here and nowhere else.
 */
public enum SearchMode {
    VECTOR,
    KEYWORD,
    HYBRID,
    /** Hybrid, then a second retrieval steered by the first hits (pseudo-relevance feedback), fused with it. */
    DEEP;

    /** The spellings as constants, for annotations (the OpenAPI schema's allowed values), which take no method calls. */
    public static final class Names {
        public static final String VECTOR = "vector";
        public static final String KEYWORD = "keyword";
        public static final String HYBRID = "hybrid";
        public static final String DEEP = "deep";

        private Names() {}
    }

    /** The mode as the API, the traces and the metrics spell it. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Every mode's {@link #wireName()}, in declaration order. */
    public static List<String> wireNames() {
        return Arrays.stream(values()).map(SearchMode::wireName).toList();
    }
}
