package io.lorekeeper.comorag;

import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;

/**
 * What the memorizer extracts from one veridical unit: the named entities, then facts about them as
 * subject-predicate-object triples. A triple with a blank part is dropped on its own; the rest of
 * the reply is kept.
 */
record TripleReply(List<String> entities, @Valid List<Triple> triples) {

    record Triple(
            @NotBlank String subject,
            @NotBlank String predicate,
            @NotBlank String object) {}

    List<String> entityList() {
        return entities == null ? List.of() : entities;
    }

    List<Triple> tripleList() {
        return triples == null ? List.of() : triples;
    }
}
