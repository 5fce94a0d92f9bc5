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
 * An {@linkplain EmbeddingChanges embedding change} adds a second column beside the live {@code
 * embedding} of each table ({@link VectorSet#NEXT}), builds its indexes while search goes on, and
 * swaps the two in one transaction.
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
                        WHERE a.atttypid = 'vector'::regtype AND c.relkind IN ('r', 'p') AND a.attname = 'embedding'
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

    /** Adds the next column to each table, of the live column's type at {@code dimensions} (a {@code bytea} stays one). */
    void addNext(List<String> tables, int dimensions) {
        for (String table : tables) {
            String type = liveType(table).startsWith("vector") ? "vector(" + dimensions + ")" : liveType(table);
            jdbc.sql("ALTER TABLE " + table + " ADD COLUMN IF NOT EXISTS " + VectorSet.NEXT + " " + type)
                    .update();
        }
    }

    /** Drops the next columns (a cancelled or failed change); their indexes go with them. */
    void dropNext(List<String> tables) {
        for (String table : tables) {
            jdbc.sql("ALTER TABLE " + table + " DROP COLUMN IF EXISTS " + VectorSet.NEXT)
                    .update();
        }
    }

    /** The documents with a row whose live vector is set and whose next one is not (rows written since the change began). */
    List<java.util.UUID> lagging(String table) {
        return jdbc.sql("SELECT DISTINCT document_id FROM " + table + " WHERE embedding IS NOT NULL AND "
                        + VectorSet.NEXT + " IS NULL")
                .query(java.util.UUID.class)
                .list();
    }

    /**
     * Builds the next column's copy of every HNSW index of the live one, without blocking writes, so
     * that the swap is a rename and search never waits for an index build. An index left invalid by an
     * earlier, killed build is built again.
     */
    void indexNext(List<String> tables) {
        for (String table : tables) {
            for (Index index : indexes(table)) {
                if (!index.hnsw()) {
                    continue;
                }
                String next = index.name() + "_next";
                jdbc.sql("""
                                SELECT i.indexrelid::regclass::text FROM pg_index i
                                WHERE i.indexrelid = to_regclass(?) AND NOT i.indisvalid""")
                        .param(next)
                        .query(String.class)
                        .optional()
                        .ifPresent(invalid -> jdbc.sql("DROP INDEX CONCURRENTLY IF EXISTS " + invalid)
                                .update());
                jdbc.sql(index.definition()
                                .replaceFirst(
                                        "CREATE INDEX " + index.name(),
                                        "CREATE INDEX CONCURRENTLY IF NOT EXISTS " + next)
                                .replace("(embedding ", "(" + VectorSet.NEXT + " "))
                        .update();
            }
        }
    }

    /**
     * In the caller's transaction: the live column gives way to the next one, which takes its name, its
     * NOT NULL and its indexes (the HNSW ones built beforehand by {@link #indexNext}, the others here).
     */
    void swap(List<String> tables) {
        for (String table : tables) {
            List<Index> indexes = indexes(table);
            boolean notNull = jdbc.sql("""
                            SELECT a.attnotnull FROM pg_attribute a
                            WHERE a.attrelid = to_regclass(?) AND a.attname = 'embedding'""").param(table).query(Boolean.class).single();
            jdbc.sql("ALTER TABLE " + table + " DROP COLUMN embedding").update();
            jdbc.sql("ALTER TABLE " + table + " RENAME COLUMN " + VectorSet.NEXT + " TO embedding")
                    .update();
            if (notNull) {
                jdbc.sql("ALTER TABLE " + table + " ALTER COLUMN embedding SET NOT NULL")
                        .update();
            }
            for (Index index : indexes) {
                if (index.hnsw()) {
                    jdbc.sql("ALTER INDEX IF EXISTS " + index.name() + "_next RENAME TO " + index.name())
                            .update();
                } else {
                    jdbc.sql(index.definition()).update();
                }
            }
        }
    }

    /** An index on a table's live vector column, as {@code pg_indexes} gives its definition. */
    record Index(String name, String definition) {
        boolean hnsw() {
            return definition.contains("USING hnsw");
        }
    }

    private List<Index> indexes(String table) {
        return jdbc.sql("""
                        SELECT indexname, indexdef FROM pg_indexes
                        WHERE schemaname = current_schema() AND tablename = ? AND indexname NOT LIKE '%\\_next'""").param(table).query((rs, n) -> new Index(rs.getString(1), rs.getString(2))).list().stream()
                .filter(i -> i.definition().matches("(?s).*\\bembedding\\b.*"))
                .toList();
    }

    private String liveType(String table) {
        return jdbc.sql("""
                        SELECT format_type(a.atttypid, a.atttypmod) FROM pg_attribute a
                        WHERE a.attrelid = to_regclass(?) AND a.attname = 'embedding' AND NOT a.attisdropped""").param(table).query(String.class).single();
    }
}
