package io.lorekeeper.document.stage;

/**
 * What every enrichment stage (memos, page headers, sentence vectors, graphs, ComoRAG's layers)
 * declares the same way: a name and a position fixed when it is made, and {@link #enrichment()}
 * true. A stage extends this and writes only what is its own: whether it applies, how it runs and
 * what a reset forgets.
 */
public abstract class EnrichmentStage implements IngestionStage {

    private final String name;
    private final int position;

    protected EnrichmentStage(String name, int position) {
        this.name = name;
        this.position = position;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final int position() {
        return position;
    }

    @Override
    public final boolean enrichment() {
        return true;
    }
}
