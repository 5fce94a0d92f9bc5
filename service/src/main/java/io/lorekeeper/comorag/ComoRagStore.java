package io.lorekeeper.comorag;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.support.TransactionTemplate;

import com.pgvector.PGvector;

import io.lorekeeper.document.ChunkEmbeddings;
import io.lorekeeper.document.VectorText;
import io.lorekeeper.document.search.ChunkIndex;
import io.lorekeeper.text.Span;

/**
 * SQL of ComoRAG's index: veridical units and their triples, and the summaries of the semantic and
 * episodic layers, written by the index stages and searched by the question loop.
 */
@Repository
class ComoRagStore {

    static final String SEMANTIC = "semantic";
    static final String EPISODIC = "episodic";

    private final JdbcClient jdbc;
    private final TransactionTemplate tx;
    private final ChunkIndex chunks;
    private final ChunkEmbeddings chunkEmbeddings;

    /** The chunks are the document module's: read, and their vectors averaged, through its API. */
    ComoRagStore(JdbcClient jdbc, TransactionTemplate tx, ChunkIndex chunks, ChunkEmbeddings chunkEmbeddings) {
        this.chunks = chunks;
        this.chunkEmbeddings = chunkEmbeddings;
        this.jdbc = jdbc;
        this.tx = tx;
    }

    /** A chunk as the unit builder needs it. */
    record ChunkRow(int ordinal, int pageOrdinal, int start, int end, int tokens) {}

    /** A veridical unit: consecutive chunks {@code [firstChunk, lastChunk]} of one page, one span of the text. */
    record Unit(UUID documentId, int ordinal, int firstChunk, int lastChunk, int pageOrdinal, Span span, int tokens) {
        UnitKey key() {
            return new UnitKey(documentId, ordinal);
        }
    }

    record UnitKey(UUID documentId, int ordinal) {}

    record Vectored<T>(T item, float[] vector) {}

    record Scored<T>(T item, double score) {}

    /** An extracted fact, with the unit it came from. */
    record Fact(UnitKey unit, String subject, String predicate, String object) {
        String text() {
            return subject + " " + predicate + " " + object;
        }
    }

    /** A semantic or episodic summary and the units under it. */
    record Summary(
            long id,
            UUID documentId,
            String layer,
            int level,
            int ordinal,
            String memberKey,
            List<Integer> units,
            Span span,
            String text) {}

    // ---------------------------------------------------------------- units

    List<ChunkRow> chunksAfter(UUID documentId, int afterChunk) {
        return chunks.spansAfter(documentId, afterChunk).stream()
                .map(c -> new ChunkRow(c.ordinal(), c.pageOrdinal(), c.start(), c.end(), c.tokenCount()))
                .toList();
    }

    int unitCount(UUID documentId) {
        return jdbc.sql("SELECT count(*) FROM comorag_unit WHERE document_id = ?")
                .param(documentId)
                .query(Integer.class)
                .single();
    }

    /** A unit whose embedding is the mean of its chunks' embeddings; a second writer of the same unit leaves the first. */
    void insertUnit(UUID documentId, int ordinal, List<ChunkRow> chunks) {
        ChunkRow first = chunks.getFirst();
        ChunkRow last = chunks.getLast();
        int tokens = chunks.stream().mapToInt(ChunkRow::tokens).sum();
        jdbc.sql("""
                INSERT INTO comorag_unit (document_id, ordinal, first_chunk, last_chunk, page_ordinal, start_offset, end_offset,
                                          token_count, embedding)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, CAST(? AS vector))
                ON CONFLICT (document_id, ordinal) DO NOTHING""")
                .params(
                        documentId,
                        ordinal,
                        first.ordinal(),
                        last.ordinal(),
                        first.pageOrdinal(),
                        first.start(),
                        last.end(),
                        tokens,
                        meanOfChunks(documentId, first.ordinal(), last.ordinal()))
                .update();
    }

    /** The mean of the chunks' vectors, or null when none is embedded yet. */
    private PGvector meanOfChunks(UUID documentId, int firstChunk, int lastChunk) {
        return chunkEmbeddings
                .mean(documentId, firstChunk, lastChunk)
                .map(PGvector::new)
                .orElse(null);
    }

    /** Every unit's embedding recomputed as the mean of its chunks' current embeddings. */
    void refreshUnitEmbeddings(UUID documentId) {
        record Range(int ordinal, int first, int last) {}
        List<Range> units = jdbc.sql(
                        "SELECT ordinal, first_chunk, last_chunk FROM comorag_unit WHERE document_id = ? ORDER BY ordinal")
                .param(documentId)
                .query((rs, n) -> new Range(rs.getInt(1), rs.getInt(2), rs.getInt(3)))
                .list();
        for (Range unit : units) {
            PGvector mean = meanOfChunks(documentId, unit.first(), unit.last());
            if (mean != null) {
                jdbc.sql("UPDATE comorag_unit SET embedding = CAST(? AS vector) WHERE document_id = ? AND ordinal = ?")
                        .params(mean, documentId, unit.ordinal())
                        .update();
            }
        }
    }

    void deleteUnits(UUID documentId) {
        clearGraph(documentId);
        jdbc.sql("DELETE FROM comorag_unit WHERE document_id = ?")
                .param(documentId)
                .update();
    }

    List<Unit> units(UUID documentId) {
        return jdbc.sql("SELECT * FROM comorag_unit WHERE document_id = ? ORDER BY ordinal")
                .param(documentId)
                .query((rs, n) -> unit(rs))
                .list();
    }

    List<Vectored<Unit>> unitVectors(UUID documentId) {
        return jdbc.sql("SELECT *, embedding::text AS vector FROM comorag_unit WHERE document_id = ? ORDER BY ordinal")
                .param(documentId)
                .query((rs, n) -> new Vectored<>(unit(rs), VectorText.parse(rs.getString("vector"))))
                .list();
    }

    List<Unit> units(Collection<UnitKey> keys) {
        List<Unit> out = new ArrayList<>();
        keys.stream().map(UnitKey::documentId).distinct().forEach(doc -> {
            Integer[] ordinals = keys.stream()
                    .filter(k -> k.documentId().equals(doc))
                    .map(UnitKey::ordinal)
                    .toArray(Integer[]::new);
            out.addAll(jdbc.sql("SELECT * FROM comorag_unit WHERE document_id = ? AND ordinal = ANY(?)")
                    .params(doc, ordinals)
                    .query((rs, n) -> unit(rs))
                    .list());
        });
        return out;
    }

    // ---------------------------------------------------------------- triples

    /** Units whose entities and triples are not stored yet, in order. */
    List<Unit> unitsWithoutTriples(UUID documentId) {
        return jdbc.sql("SELECT * FROM comorag_unit WHERE document_id = ? AND entities IS NULL ORDER BY ordinal")
                .param(documentId)
                .query((rs, n) -> unit(rs))
                .list();
    }

    /** A unit's entities and facts, stored together: the unit's checkpoint in the triples stage. */
    void saveTriples(Unit unit, List<String> entities, List<Fact> facts, List<float[]> vectors) {
        tx.executeWithoutResult(status -> {
            jdbc.sql("DELETE FROM comorag_triple WHERE document_id = ? AND unit_ordinal = ?")
                    .params(unit.documentId(), unit.ordinal())
                    .update();
            for (int i = 0; i < facts.size(); i++) {
                Fact f = facts.get(i);
                jdbc.sql(
                                "INSERT INTO comorag_triple (document_id, unit_ordinal, subject, predicate, object, embedding) VALUES (?, ?, ?, ?, ?, ?)")
                        .params(
                                unit.documentId(),
                                unit.ordinal(),
                                f.subject(),
                                f.predicate(),
                                f.object(),
                                new PGvector(vectors.get(i)))
                        .update();
            }
            jdbc.sql("UPDATE comorag_unit SET entities = ? WHERE document_id = ? AND ordinal = ?")
                    .params(entities.toArray(String[]::new), unit.documentId(), unit.ordinal())
                    .update();
        });
    }

    void clearTriples(UUID documentId) {
        tx.executeWithoutResult(status -> {
            clearGraph(documentId);
            jdbc.sql("DELETE FROM comorag_triple WHERE document_id = ?")
                    .param(documentId)
                    .update();
            jdbc.sql("UPDATE comorag_unit SET entities = NULL WHERE document_id = ?")
                    .param(documentId)
                    .update();
        });
    }

    // ---------------------------------------------------------------- graph

    /** Every unit that has its triples, with the entities its reply listed. */
    List<GraphBuilder.UnitEntities> unitEntities(UUID documentId) {
        return jdbc.sql(
                        "SELECT ordinal, entities FROM comorag_unit WHERE document_id = ? AND entities IS NOT NULL ORDER BY ordinal")
                .param(documentId)
                .query((rs, n) -> new GraphBuilder.UnitEntities(
                        rs.getInt(1), List.of((String[]) rs.getArray(2).getArray())))
                .list();
    }

    /** Every triple of a document, in unit order. */
    List<Fact> facts(UUID documentId) {
        return jdbc.sql(
                        "SELECT unit_ordinal, subject, predicate, object FROM comorag_triple WHERE document_id = ? ORDER BY unit_ordinal, id")
                .param(documentId)
                .query((rs, n) -> new Fact(
                        new UnitKey(documentId, rs.getInt(1)), rs.getString(2), rs.getString(3), rs.getString(4)))
                .list();
    }

    /** Replaces a document's graph and its entity nodes. */
    void saveGraph(UUID documentId, GraphBuilder.Built built) {
        EntityGraph g = built.graph();
        ComoRagEvent.GraphSize size = g.size();
        tx.executeWithoutResult(status -> {
            clearGraph(documentId);
            jdbc.sql("""
                    INSERT INTO comorag_graph (document_id, entity_count, unit_count, fact_edges, passage_edges, synonym_edges, graph)
                    VALUES (?, ?, ?, ?, ?, ?, ?)""")
                    .params(
                            documentId,
                            size.entities(),
                            size.units(),
                            size.factEdges(),
                            size.passageEdges(),
                            size.synonymEdges(),
                            g.serialise())
                    .update();
            int batch = 1000;
            for (int from = 0; from < g.entityCount(); from += batch) {
                int to = Math.min(g.entityCount(), from + batch);
                Integer[] nodes = new Integer[to - from];
                String[] names = new String[to - from];
                String[] vectors = new String[to - from];
                for (int i = from; i < to; i++) {
                    nodes[i - from] = i;
                    names[i - from] = g.entity(i);
                    vectors[i - from] = VectorText.of(built.vectors().get(i));
                }
                jdbc.sql("""
                        INSERT INTO comorag_entity (document_id, node, name, embedding)
                        SELECT ?, t.node, t.name, CAST(t.vector AS vector) FROM unnest(?, ?, ?) AS t(node, name, vector)""").params(documentId, nodes, names, vectors).update();
            }
        });
    }

    void clearGraph(UUID documentId) {
        jdbc.sql("DELETE FROM comorag_graph WHERE document_id = ?")
                .param(documentId)
                .update();
    }

    Optional<EntityGraph> graph(UUID documentId) {
        return jdbc.sql("SELECT graph FROM comorag_graph WHERE document_id = ?")
                .param(documentId)
                .query((rs, n) -> EntityGraph.deserialise(rs.getBytes(1)))
                .optional();
    }

    /** The size of a document's graph, as stored beside it: without reading the graph itself. */
    Optional<ComoRagEvent.GraphSize> graphSize(UUID documentId) {
        return jdbc.sql(
                        "SELECT entity_count, unit_count, fact_edges, passage_edges, synonym_edges FROM comorag_graph WHERE document_id = ?")
                .param(documentId)
                .query((rs, n) -> new ComoRagEvent.GraphSize(
                        rs.getInt(1), rs.getInt(2), rs.getInt(3), rs.getInt(4), rs.getInt(5)))
                .optional();
    }

    /** An entity node of a document's graph. */
    record EntityRef(UUID documentId, int node, String name) {}

    /** Entity nodes whose name embedding is nearest to {@code query}. */
    List<Scored<EntityRef>> nearestEntities(List<UUID> documentIds, float[] query, int k) {
        PGvector vector = new PGvector(query);
        return inVectorScan(
                k,
                () -> jdbc.sql("""
                        SELECT document_id, node, name, embedding <=> ? AS distance FROM comorag_entity
                        WHERE document_id = ANY(?) ORDER BY embedding <=> ? LIMIT ?""")
                        .params(vector, documentIds.toArray(UUID[]::new), vector, k)
                        .query((rs, n) -> new Scored<>(
                                new EntityRef(rs.getObject(1, UUID.class), rs.getInt(2), rs.getString(3)),
                                1.0 - rs.getDouble(4)))
                        .list());
    }

    // ---------------------------------------------------------------- summaries

    Optional<Summary> summary(UUID documentId, String layer, int level, String memberKey) {
        return jdbc.sql(
                        "SELECT * FROM comorag_summary WHERE document_id = ? AND layer = ? AND level = ? AND member_key = ?")
                .params(documentId, layer, level, memberKey)
                .query((rs, n) -> summary(rs))
                .optional();
    }

    /** Inserts a summary, or returns the one a concurrent writer stored first. */
    Summary insertSummary(
            UUID documentId,
            String layer,
            int level,
            int ordinal,
            String memberKey,
            List<Integer> units,
            Span span,
            String text,
            float[] vector) {
        jdbc.sql("""
                INSERT INTO comorag_summary (document_id, layer, level, ordinal, member_key, units, start_offset, end_offset, text, embedding)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (document_id, layer, level, member_key) DO NOTHING""")
                .params(
                        documentId,
                        layer,
                        level,
                        ordinal,
                        memberKey,
                        units.toArray(Integer[]::new),
                        span.start(),
                        span.end(),
                        text,
                        new PGvector(vector))
                .update();
        return summary(documentId, layer, level, memberKey).orElseThrow();
    }

    void setOrdinal(long summaryId, int ordinal) {
        jdbc.sql("UPDATE comorag_summary SET ordinal = ? WHERE id = ?")
                .params(ordinal, summaryId)
                .update();
    }

    List<Vectored<Summary>> summaryVectors(UUID documentId, String layer, int level) {
        return jdbc.sql(
                        "SELECT *, embedding::text AS vector FROM comorag_summary WHERE document_id = ? AND layer = ? AND level = ? ORDER BY ordinal")
                .params(documentId, layer, level)
                .query((rs, n) -> new Vectored<>(summary(rs), VectorText.parse(rs.getString("vector"))))
                .list();
    }

    List<Summary> summaries(UUID documentId, String layer) {
        return jdbc.sql("SELECT * FROM comorag_summary WHERE document_id = ? AND layer = ? ORDER BY level, ordinal")
                .params(documentId, layer)
                .query((rs, n) -> summary(rs))
                .list();
    }

    /** Drops the summaries of a level that its latest plan no longer has. */
    void prune(UUID documentId, String layer, int level, Set<Long> keep) {
        jdbc.sql("DELETE FROM comorag_summary WHERE document_id = ? AND layer = ? AND level = ? AND NOT (id = ANY(?))")
                .params(documentId, layer, level, keep.toArray(Long[]::new))
                .update();
    }

    void deleteAbove(UUID documentId, String layer, int topLevel) {
        jdbc.sql("DELETE FROM comorag_summary WHERE document_id = ? AND layer = ? AND level > ?")
                .params(documentId, layer, topLevel)
                .update();
    }

    void deleteSummaries(UUID documentId, String layer) {
        jdbc.sql("DELETE FROM comorag_summary WHERE document_id = ? AND layer = ?")
                .params(documentId, layer)
                .update();
    }

    // ---------------------------------------------------------------- search

    /** Units nearest to {@code query} by cosine similarity, leaving out {@code exclude}. */
    List<Scored<Unit>> nearestUnits(List<UUID> documentIds, float[] query, int k, Set<UnitKey> exclude) {
        PGvector vector = new PGvector(query);
        return inVectorScan(
                        k + exclude.size(),
                        () -> jdbc.sql("""
                        SELECT *, embedding <=> ? AS distance FROM comorag_unit WHERE document_id = ANY(?)
                        ORDER BY embedding <=> ? LIMIT ?""")
                                .params(vector, documentIds.toArray(UUID[]::new), vector, k + exclude.size())
                                .query((rs, n) -> new Scored<>(unit(rs), 1.0 - rs.getDouble("distance")))
                                .list())
                .stream()
                .filter(s -> !exclude.contains(s.item().key()))
                .sorted(Comparator.comparingDouble((Scored<Unit> s) -> s.score())
                        .reversed())
                .limit(k)
                .toList();
    }

    /**
     * Every unit of the documents with its similarity to {@code query}, nearest first: an exact scan
     * (no index), as HippoRAG 2 scores every passage for its passage seeds.
     */
    List<Scored<Unit>> allUnits(List<UUID> documentIds, float[] query) {
        PGvector vector = new PGvector(query);
        return jdbc
                .sql("SELECT *, embedding <=> ? AS distance FROM comorag_unit WHERE document_id = ANY(?)")
                .params(vector, documentIds.toArray(UUID[]::new))
                .query((rs, n) -> new Scored<>(unit(rs), 1.0 - rs.getDouble("distance")))
                .list()
                .stream()
                .sorted(Comparator.comparingDouble((Scored<Unit> s) -> s.score())
                        .reversed())
                .toList();
    }

    /** Facts nearest to {@code query}: the veridical layer's link from a query to the units that state it. */
    List<Scored<Fact>> nearestFacts(List<UUID> documentIds, float[] query, int k) {
        PGvector vector = new PGvector(query);
        return inVectorScan(
                        k,
                        () -> jdbc.sql("""
                        SELECT document_id, unit_ordinal, subject, predicate, object, embedding <=> ? AS distance FROM comorag_triple
                        WHERE document_id = ANY(?) ORDER BY embedding <=> ? LIMIT ?""")
                                .params(vector, documentIds.toArray(UUID[]::new), vector, k)
                                .query((rs, n) -> new Scored<>(
                                        new Fact(
                                                new UnitKey(
                                                        rs.getObject("document_id", UUID.class),
                                                        rs.getInt("unit_ordinal")),
                                                rs.getString("subject"),
                                                rs.getString("predicate"),
                                                rs.getString("object")),
                                        1.0 - rs.getDouble("distance")))
                                .list())
                .stream()
                .sorted(Comparator.comparingDouble((Scored<Fact> s) -> s.score())
                        .reversed())
                .toList();
    }

    /**
     * Units that mention entities named in {@code query} (an extracted entity of three or more
     * characters occurring in it, case-insensitively), most matching entities first.
     */
    List<Scored<UnitKey>> unitsNaming(List<UUID> documentIds, String query, int k) {
        return jdbc.sql("""
                        SELECT u.document_id, u.ordinal, count(*) AS hits FROM comorag_unit u, unnest(u.entities) AS e(name)
                        WHERE u.document_id = ANY(?) AND length(e.name) >= 3 AND strpos(lower(?), lower(e.name)) > 0
                        GROUP BY u.document_id, u.ordinal ORDER BY hits DESC, u.document_id, u.ordinal LIMIT ?""")
                .params(documentIds.toArray(UUID[]::new), query, k)
                .query((rs, n) -> new Scored<>(new UnitKey(rs.getObject(1, UUID.class), rs.getInt(2)), rs.getInt(3)))
                .list();
    }

    /** Summaries of a layer (any level) nearest to {@code query}, leaving out the ids in {@code exclude}. */
    List<Scored<Summary>> nearestSummaries(
            List<UUID> documentIds, String layer, float[] query, int k, Set<Long> exclude) {
        PGvector vector = new PGvector(query);
        return inVectorScan(
                        k + exclude.size(),
                        () -> jdbc.sql("""
                        SELECT *, embedding <=> ? AS distance FROM comorag_summary WHERE document_id = ANY(?) AND layer = ?
                        ORDER BY embedding <=> ? LIMIT ?""")
                                .params(vector, documentIds.toArray(UUID[]::new), layer, vector, k + exclude.size())
                                .query((rs, n) -> new Scored<>(summary(rs), 1.0 - rs.getDouble("distance")))
                                .list())
                .stream()
                .filter(s -> !exclude.contains(s.item().id()))
                .sorted(Comparator.comparingDouble((Scored<Summary> s) -> s.score())
                        .reversed())
                .limit(k)
                .toList();
    }

    /** What the index holds for a document: units, units with triples, triples, and summaries per layer. */
    record Stats(
            int units,
            int unitsWithTriples,
            int triples,
            int semantic,
            int semanticLevels,
            int episodic,
            int episodicLevels) {}

    Stats stats(UUID documentId) {
        return jdbc.sql("""
                SELECT (SELECT count(*) FROM comorag_unit WHERE document_id = ?),
                       (SELECT count(*) FROM comorag_unit WHERE document_id = ? AND entities IS NOT NULL),
                       (SELECT count(*) FROM comorag_triple WHERE document_id = ?),
                       (SELECT count(*) FROM comorag_summary WHERE document_id = ? AND layer = 'semantic'),
                       (SELECT coalesce(max(level), 0) FROM comorag_summary WHERE document_id = ? AND layer = 'semantic'),
                       (SELECT count(*) FROM comorag_summary WHERE document_id = ? AND layer = 'episodic'),
                       (SELECT coalesce(max(level), 0) FROM comorag_summary WHERE document_id = ? AND layer = 'episodic')""")
                .params(documentId, documentId, documentId, documentId, documentId, documentId, documentId)
                .query((rs, n) -> new Stats(
                        rs.getInt(1),
                        rs.getInt(2),
                        rs.getInt(3),
                        rs.getInt(4),
                        rs.getInt(5),
                        rs.getInt(6),
                        rs.getInt(7)))
                .single();
    }

    /**
     * Runs a nearest-neighbour query with pgvector's iterative index scan, so that filtering by
     * document inside a large corpus still returns its k rows.
     */
    private <T> List<T> inVectorScan(int k, java.util.function.Supplier<List<T>> query) {
        return tx.execute(status -> {
            jdbc.sql(
                            "SELECT set_config('hnsw.ef_search', ?, true), set_config('hnsw.iterative_scan', 'relaxed_order', true)")
                    .param(String.valueOf(Math.min(1000, Math.max(40, 2 * k))))
                    .query((rs, n) -> null)
                    .list();
            return query.get();
        });
    }

    private static Unit unit(ResultSet rs) throws SQLException {
        return new Unit(
                rs.getObject("document_id", UUID.class),
                rs.getInt("ordinal"),
                rs.getInt("first_chunk"),
                rs.getInt("last_chunk"),
                rs.getInt("page_ordinal"),
                new Span(rs.getInt("start_offset"), rs.getInt("end_offset")),
                rs.getInt("token_count"));
    }

    private static Summary summary(ResultSet rs) throws SQLException {
        Array units = rs.getArray("units");
        List<Integer> members = units == null ? List.of() : List.of((Integer[]) units.getArray());
        return new Summary(
                rs.getLong("id"),
                rs.getObject("document_id", UUID.class),
                rs.getString("layer"),
                rs.getInt("level"),
                rs.getInt("ordinal"),
                rs.getString("member_key"),
                members,
                new Span(rs.getInt("start_offset"), rs.getInt("end_offset")),
                rs.getString("text"));
    }
}
