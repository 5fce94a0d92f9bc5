package io.lorekeeper.comorag;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How the {@code triples} stage extracts, under {@code lorekeeper.comorag.triples} (an index setting:
 * triples are written at ingestion; rebuild them with a reindex of {@code triples} after changing it).
 *
 * @param extraction {@code ner-openie}: HippoRAG 2's two steps, one call naming the unit's entities and
 *                   a second writing its facts given those entities (two calls per unit), or
 *                   {@code single}: one call naming the entities and writing the facts together (the
 *                   earlier behaviour, half the calls)
 */
@ConfigurationProperties("lorekeeper.comorag.triples")
record TripleSettings(@DefaultValue("ner-openie") String extraction) {

    static final String NER_OPENIE = "ner-openie";
    static final String SINGLE = "single";

    TripleSettings {
        if (!(NER_OPENIE.equals(extraction) || SINGLE.equals(extraction))) {
            throw new IllegalArgumentException(
                    "lorekeeper.comorag.triples.extraction must be ner-openie or single, not " + extraction);
        }
    }

    boolean twoSteps() {
        return NER_OPENIE.equals(extraction);
    }
}
