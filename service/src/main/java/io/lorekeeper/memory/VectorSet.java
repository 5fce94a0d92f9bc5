package io.lorekeeper.memory;

import java.util.List;
import java.util.UUID;
import java.util.function.Function;

/**
 * Vectors a module stores in the {@code embedding} column of its tables, for an {@linkplain
 * EmbeddingChanges embedding change}: the change adds a column {@code embedding_next} beside each, asks
 * the set to fill it for every document with the new model, and swaps the two in one transaction. A
 * module that adds a table with a vector column implements this for it; a change refuses to start while
 * a vector column belongs to no set.
 */
public interface VectorSet {

    /** The column a change fills. */
    String NEXT = "embedding_next";

    /** The tables whose {@code embedding} this set fills, each with a {@code document_id} column. */
    List<String> tables();

    /**
     * Tables whose vectors derive from others and are dropped at the switch instead of filled, to be
     * rebuilt on demand with the new model (ComoRAG's entity graph).
     */
    default List<String> dropped() {
        return List.of();
    }

    /** Sets of a lower order fill a document first (ComoRAG's units are the mean of the chunks' new vectors). */
    default int order() {
        return 100;
    }

    /**
     * Fills {@link #NEXT} of those of the document's rows that have none, embedding texts with {@code
     * embed} (the new model, passages' prefix included). Called again for a document that gained rows.
     */
    void fill(UUID documentId, Function<List<String>, List<float[]>> embed);

    /** In the switch's transaction, before the columns swap: forgets the {@link #dropped} tables' rows. */
    default void beforeSwap() {}
}
