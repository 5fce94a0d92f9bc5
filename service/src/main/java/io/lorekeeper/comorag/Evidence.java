package io.lorekeeper.comorag;

import java.util.List;
import java.util.UUID;

import io.lorekeeper.text.Span;

/**
 * One item a layer returned: a veridical unit (source text, citable) or a semantic or episodic
 * summary (model-written, never cited as source; its units are).
 *
 * @param id      stable across the question: {@code u:<document>:<unit>} or {@code s:<summary id>}
 * @param units   the unit ordinals the item covers (one for a veridical unit)
 * @param session the conversation session line of a unit's page, else null
 */
record Evidence(
        String layer,
        String id,
        UUID documentId,
        Span span,
        List<Integer> units,
        int pageOrdinal,
        String text,
        int tokens,
        double score,
        String session) {

    boolean isSource() {
        return layer.equals(ComoRagOptions.VERIDICAL);
    }
}
