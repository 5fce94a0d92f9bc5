package io.lorekeeper.memory;

import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Every {@code vector} column of the schema, found in the catalogue rather than listed, so that a table
 * a later migration adds follows the model too. A column's dimension is its type modifier; changing
 * it changes the type, and PostgreSQL rebuilds the column's HNSW index for the new type on the way.
 * Only an empty column is changed: vectors already stored were made by a model of their own dimension.
 */
final class VectorColumns {

    private static final Logger log = LoggerFactory.getLogger(VectorColumns.class);
    /** pgvector indexes {@code vector} columns of at most 2,000 dimensions with HNSW. */
    static final int MAX_INDEXED_DIMENSIONS = 2000;

    record Column(String table, String name, int dimensions) {
        String qualified() {
            return table + "." + name;
        }
    }

    private final JdbcClient jdbc;

    VectorColumns(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    List<Column> all() {
        return jdbc.sql("""
                        SELECT c.relname AS table_name, a.attname AS column_name, a.atttypmod AS dimensions
                        FROM pg_attribute a
                        JOIN pg_class c ON c.oid = a.attrelid
                        JOIN pg_namespace n ON n.oid = c.relnamespace
                        WHERE a.atttypid = 'vector'::regtype AND c.relkind IN ('r', 'p')
                          AND n.nspname = current_schema() AND a.attnum > 0 AND NOT a.attisdropped
                        ORDER BY c.relname, a.attname
                        """)
                .query((rs, i) ->
                        new Column(rs.getString("table_name"), rs.getString("column_name"), rs.getInt("dimensions")))
                .list();
    }

    /**
     * Gives every empty column of another dimension the model's; a column holding vectors of another
     * dimension is refused with the numbers. Runs inside the caller's transaction (DDL is transactional
     * in PostgreSQL, so two replicas starting together never see a half-changed schema).
     */
    void follow(String model, int dimensions) {
        if (dimensions < 1 || dimensions > MAX_INDEXED_DIMENSIONS) {
            throw new IllegalStateException("the embedding model " + model + " makes " + dimensions
                    + "-dimensional vectors; the vector index (pgvector HNSW) takes 1 to " + MAX_INDEXED_DIMENSIONS
                    + ". An endpoint model that can shorten its vectors (OpenAI's text-embedding-3-*) can be asked"
                    + " for fewer with lorekeeper.embedding.endpoint.dimensions");
        }
        for (Column column : all()) {
            if (column.dimensions() == dimensions) {
                continue;
            }
            // identifiers come from the catalogue of our own schema, never from a request
            boolean holdsVectors = jdbc.sql("SELECT EXISTS (SELECT 1 FROM " + column.table() + " WHERE " + column.name()
                            + " IS NOT NULL)")
                    .query(Boolean.class)
                    .single();
            if (holdsVectors) {
                throw new IllegalStateException(column.qualified() + " holds " + column.dimensions()
                        + "-dimensional vectors and the embedding model " + model + " makes " + dimensions
                        + "-dimensional ones: vectors of two models cannot be compared, so this replica"
                        + " will not embed or search here");
            }
            jdbc.sql("ALTER TABLE " + column.table() + " ALTER COLUMN " + column.name() + " TYPE vector(" + dimensions
                            + ")")
                    .update();
            log.info(
                    "{} now holds {}-dimensional vectors (was {})",
                    column.qualified(),
                    dimensions,
                    column.dimensions());
        }
    }
}
