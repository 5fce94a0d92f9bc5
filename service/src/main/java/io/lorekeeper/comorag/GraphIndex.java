package io.lorekeeper.comorag;

import java.util.Optional;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import io.lorekeeper.memory.Embeddings;

/**
 * Builds and loads a document's veridical graph ({@link EntityGraph}). The triples stage builds it
 * once all of its units have their triples; a document whose triples were stored before the graph
 * existed gets it built the first time a question needs it (entity names embedded, no model call).
 */
@Component
class GraphIndex {

    private static final Logger log = LoggerFactory.getLogger(GraphIndex.class);

    private final ComoRagStore store;
    private final Embeddings embeddings;

    GraphIndex(ComoRagStore store, Embeddings embeddings) {
        this.store = store;
        this.embeddings = embeddings;
    }

    /** Builds (or rebuilds) the graph from the stored triples; returns it. */
    EntityGraph build(UUID documentId) {
        long start = System.nanoTime();
        GraphBuilder.Built built = GraphBuilder.build(
                store.unitEntities(documentId),
                store.facts(documentId),
                embeddings::passages,
                GraphBuilder.SYNONYM_SIMILARITY);
        store.saveGraph(documentId, built);
        EntityGraph g = built.graph();
        log.info(
                "Veridical graph of document {}: {} in {} ms",
                documentId,
                g.size(),
                (System.nanoTime() - start) / 1_000_000);
        return g;
    }

    /** The stored graph, built now when the document has triples but no graph yet; empty when it has no triples. */
    Optional<EntityGraph> load(UUID documentId) {
        Optional<EntityGraph> stored = store.graph(documentId);
        return stored.isPresent() ? stored : buildMissing(documentId);
    }

    /** One build at a time, so that concurrent first questions do not build the same graph twice. */
    private synchronized Optional<EntityGraph> buildMissing(UUID documentId) {
        Optional<EntityGraph> stored = store.graph(documentId);
        if (stored.isPresent()) {
            return stored;
        }
        if (store.unitEntities(documentId).isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(build(documentId));
    }
}
