package io.lorekeeper.mindgraph;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.support.TransactionTemplate;

import io.lorekeeper.text.Blocks;
import io.lorekeeper.text.Span;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/** Graphs, their nodes and edges, and the community reports cached per graph hash. */
@Repository
class GraphStore {

    static final String SHARED = "";
    static final String BUILDING = "BUILDING";
    static final String READY = "READY";

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final JdbcClient jdbc;
    private final JdbcTemplate template;
    private final TransactionTemplate tx;

    GraphStore(JdbcClient jdbc, JdbcTemplate template, TransactionTemplate tx) {
        this.jdbc = jdbc;
        this.template = template;
        this.tx = tx;
    }

    /** A stored graph's header. */
    record GraphRow(
            long id,
            UUID documentId,
            String scope,
            String question,
            int chunkTokens,
            String status,
            int blocksDone,
            int builtTo,
            Map<String, Integer> rejected,
            Long seededFrom) {}

    /** The scope of a question-aware graph: a hash of the question text. */
    static String scopeOf(String question) {
        return question == null ? SHARED : ConceptGraph.sha256(question.strip()).substring(0, 32);
    }

    Optional<GraphRow> find(UUID documentId, String scope, int chunkTokens) {
        return jdbc.sql("SELECT * FROM graph WHERE document_id = ? AND scope = ? AND chunk_tokens = ?")
                .params(documentId, scope, chunkTokens)
                .query(GraphStore::row)
                .optional();
    }

    /** The most recently updated question-agnostic graph of the document, in any state. */
    Optional<GraphRow> shared(UUID documentId) {
        return jdbc.sql(
                        "SELECT * FROM graph WHERE document_id = ? AND scope = '' ORDER BY updated_at DESC, id DESC LIMIT 1")
                .param(documentId)
                .query(GraphStore::row)
                .optional();
    }

    GraphRow create(UUID documentId, String scope, String question, int chunkTokens, Long seededFrom) {
        jdbc.sql("""
                INSERT INTO graph (document_id, scope, question, chunk_tokens, status, seeded_from) VALUES (?, ?, ?, ?, 'BUILDING', ?)
                ON CONFLICT (document_id, scope, chunk_tokens) DO NOTHING""")
                .params(documentId, scope, question, chunkTokens, seededFrom)
                .update();
        return find(documentId, scope, chunkTokens).orElseThrow();
    }

    ConceptGraph load(long graphId) {
        List<ConceptGraph.Node> nodes = jdbc.sql("SELECT * FROM graph_node WHERE graph_id = ? ORDER BY ordinal")
                .param(graphId)
                .query((rs, n) -> new ConceptGraph.Node(
                        rs.getString("node_id"),
                        rs.getString("type"),
                        rs.getString("content"),
                        span(rs),
                        rs.getInt("chunk"),
                        spans(rs.getString("merged_spans"))))
                .list();
        List<ConceptGraph.Edge> edges = jdbc.sql("SELECT * FROM graph_edge WHERE graph_id = ? ORDER BY ordinal")
                .param(graphId)
                .query((rs, n) -> new ConceptGraph.Edge(
                        rs.getString("source"),
                        rs.getString("target"),
                        rs.getString("relation"),
                        span(rs),
                        rs.getInt("chunk")))
                .list();
        return ConceptGraph.of(nodes, edges);
    }

    /** Replaces the stored graph with {@code graph} and records the build's progress, atomically. */
    void save(
            long graphId,
            ConceptGraph graph,
            int blocksDone,
            int builtTo,
            Map<String, Integer> rejected,
            String status) {
        tx.executeWithoutResult(s -> {
            template.update("DELETE FROM graph_node WHERE graph_id = ?", graphId);
            template.update("DELETE FROM graph_edge WHERE graph_id = ?", graphId);
            List<Object[]> nodeRows = new ArrayList<>();
            int ordinal = 0;
            for (ConceptGraph.Node n : graph.nodes()) {
                nodeRows.add(new Object[] {
                    graphId,
                    n.id(),
                    ordinal++,
                    n.type(),
                    n.content(),
                    n.span().start(),
                    n.span().end(),
                    n.chunk(),
                    JSON.writeValueAsString(n.merged().stream()
                            .map(m -> List.of(m.start(), m.end()))
                            .toList())
                });
            }
            template.batchUpdate("""
                    INSERT INTO graph_node (graph_id, node_id, ordinal, type, content, start_offset, end_offset, chunk, merged_spans)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb)""", nodeRows);
            List<Object[]> edgeRows = new ArrayList<>();
            ordinal = 0;
            for (ConceptGraph.Edge e : graph.edges()) {
                edgeRows.add(new Object[] {
                    graphId,
                    ordinal++,
                    e.source(),
                    e.target(),
                    e.relation(),
                    e.span().start(),
                    e.span().end(),
                    e.chunk()
                });
            }
            template.batchUpdate("""
                    INSERT INTO graph_edge (graph_id, ordinal, source, target, relation, start_offset, end_offset, chunk)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)""", edgeRows);
            template.update(
                    "UPDATE graph SET blocks_done = ?, built_to = ?, rejected = ?::jsonb, status = ?, updated_at = now() WHERE id = ?",
                    blocksDone,
                    builtTo,
                    JSON.writeValueAsString(rejected),
                    status,
                    graphId);
        });
    }

    /** Blocks a build skipped because the builder's reply for them stayed unusable, in block order. */
    List<Blocks.Block> skippedBlocks(long graphId) {
        String json = jdbc.sql("SELECT skipped_blocks::text FROM graph WHERE id = ?")
                .param(graphId)
                .query(String.class)
                .optional()
                .orElse("[]");
        List<List<Integer>> raw = JSON.readValue(json, new TypeReference<List<List<Integer>>>() {});
        return raw.stream()
                .map(b -> new Blocks.Block(b.get(0), b.get(1), b.get(2)))
                .sorted(java.util.Comparator.comparingInt(Blocks.Block::index))
                .toList();
    }

    void setSkippedBlocks(long graphId, List<Blocks.Block> blocks) {
        jdbc.sql("UPDATE graph SET skipped_blocks = ?::jsonb, updated_at = now() WHERE id = ?")
                .params(
                        JSON.writeValueAsString(blocks.stream()
                                .map(b -> List.of(b.index(), b.start(), b.end()))
                                .toList()),
                        graphId)
                .update();
    }

    void deleteShared(UUID documentId) {
        jdbc.sql("DELETE FROM graph WHERE document_id = ? AND scope = ''")
                .param(documentId)
                .update();
    }

    /** One community's cached report. */
    record Report(
            int community, List<String> nodeIds, String title, double rating, String summary, List<String> findings) {}

    List<Report> reports(String graphHash) {
        return jdbc.sql("SELECT * FROM graph_summary WHERE graph_hash = ? ORDER BY community")
                .param(graphHash)
                .query((rs, n) -> new Report(
                        rs.getInt("community"),
                        strings(rs.getString("node_ids")),
                        rs.getString("title"),
                        rs.getDouble("rating"),
                        rs.getString("summary"),
                        strings(rs.getString("findings"))))
                .list();
    }

    /** Forgets the community reports of a tenant's graphs: their hashes start with the tenant's id (see GraphTools). */
    void deleteReportsOf(UUID tenantId) {
        jdbc.sql("DELETE FROM graph_summary WHERE graph_hash LIKE ?")
                .param(tenantId + ":%")
                .update();
    }

    void saveReport(String graphHash, Report report) {
        jdbc.sql("""
                INSERT INTO graph_summary (graph_hash, community, node_ids, title, rating, summary, findings)
                VALUES (?, ?, ?::jsonb, ?, ?, ?, ?::jsonb) ON CONFLICT (graph_hash, community) DO NOTHING""")
                .params(
                        graphHash,
                        report.community(),
                        JSON.writeValueAsString(report.nodeIds()),
                        report.title(),
                        report.rating(),
                        report.summary(),
                        JSON.writeValueAsString(report.findings()))
                .update();
    }

    private static GraphRow row(java.sql.ResultSet rs, int n) throws java.sql.SQLException {
        long seeded = rs.getLong("seeded_from");
        Long seededFrom = rs.wasNull() ? null : seeded;
        return new GraphRow(
                rs.getLong("id"),
                rs.getObject("document_id", UUID.class),
                rs.getString("scope"),
                rs.getString("question"),
                rs.getInt("chunk_tokens"),
                rs.getString("status"),
                rs.getInt("blocks_done"),
                rs.getInt("built_to"),
                JSON.readValue(rs.getString("rejected"), new TypeReference<Map<String, Integer>>() {}),
                seededFrom);
    }

    private static Span span(ResultSet rs) throws SQLException {
        return new Span(rs.getInt("start_offset"), rs.getInt("end_offset"));
    }

    private static List<Span> spans(String json) {
        List<List<Integer>> raw = JSON.readValue(json, new TypeReference<List<List<Integer>>>() {});
        return raw.stream().map(p -> new Span(p.get(0), p.get(1))).toList();
    }

    private static List<String> strings(String json) {
        return JSON.readValue(json, new TypeReference<List<String>>() {});
    }
}
