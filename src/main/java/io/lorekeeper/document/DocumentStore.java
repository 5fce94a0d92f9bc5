package io.lorekeeper.document;

import java.sql.Array;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.BatchPreparedStatementSetter;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;

import io.lorekeeper.document.CanonicalText.RenderedSession;
import io.lorekeeper.document.CanonicalText.RenderedTurn;
import io.lorekeeper.document.DocumentResponses.DocumentView;
import io.lorekeeper.document.DocumentResponses.StageView;
import io.lorekeeper.text.Span;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/** SQL for documents, their text, conversation structure, segmentation and stage progress. */
@Repository
class DocumentStore {

    private final JdbcClient jdbc;
    private final JdbcTemplate jdbcTemplate;
    private final JsonMapper json;

    DocumentStore(JdbcClient jdbc, JdbcTemplate jdbcTemplate, JsonMapper json) {
        this.jdbc = jdbc;
        this.jdbcTemplate = jdbcTemplate;
        this.json = json;
    }

    record NewDocument(UUID id, UUID tenantId, String title, DocumentKind kind, String profile,
            Map<String, Object> metadata, String contentHash, CanonicalText canonical) {
    }

    /** A stage as the store records it: its name and whether it builds retrieval or an enrichment. */
    record StageDef(String name, boolean enrichment) {
        String kind() {
            return enrichment ? "enrichment" : "retrieval";
        }
    }

    @Transactional
    void insert(NewDocument doc, List<StageDef> stages) {
        jdbc.sql("""
                INSERT INTO document (id, tenant_id, title, kind, profile, metadata, status, content_hash, char_count)
                VALUES (?, ?, ?, ?, ?, ?::jsonb, 'QUEUED', ?, ?)""")
                .params(doc.id(), doc.tenantId(), doc.title(), doc.kind().name(), doc.profile(),
                        json.writeValueAsString(doc.metadata()), doc.contentHash(), doc.canonical().text().length())
                .update();
        jdbc.sql("INSERT INTO document_text (document_id, text) VALUES (?, ?)")
                .params(doc.id(), doc.canonical().text()).update();
        insertSessions(doc.id(), doc.canonical().sessions());
        insertTurns(doc.id(), doc.canonical().turns());
        ensureStages(doc.id(), stages);
    }

    private void insertSessions(UUID documentId, List<RenderedSession> sessions) {
        jdbcTemplate.batchUpdate("""
                INSERT INTO conversation_session (document_id, session_index, session_id, date_time, start_offset, end_offset)
                VALUES (?, ?, ?, ?, ?, ?)""", sessions, 500, (ps, s) -> {
            ps.setObject(1, documentId);
            ps.setInt(2, s.index());
            ps.setString(3, s.id());
            ps.setString(4, s.dateTime());
            ps.setInt(5, s.span().start());
            ps.setInt(6, s.span().end());
        });
    }

    private void insertTurns(UUID documentId, List<RenderedTurn> turns) {
        jdbcTemplate.batchUpdate("""
                INSERT INTO conversation_turn (document_id, turn_id, session_id, session_index, turn_index, speaker, start_offset, end_offset)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)""", turns, 1000, (ps, t) -> {
            ps.setObject(1, documentId);
            ps.setString(2, t.id());
            ps.setString(3, t.sessionId());
            ps.setInt(4, t.sessionIndex());
            ps.setInt(5, t.turnIndex());
            ps.setString(6, t.speaker());
            ps.setInt(7, t.span().start());
            ps.setInt(8, t.span().end());
        });
    }

    /** The document, locked until the surrounding transaction ends: appends to one conversation queue up here. */
    Optional<DocumentInfo> lock(UUID tenantId, UUID id) {
        return jdbc.sql("SELECT * FROM document WHERE tenant_id = ? AND id = ? FOR UPDATE").params(tenantId, id).query(INFO).optional();
    }

    /**
     * Grows a conversation: {@code suffix} goes after the stored text (so no stored offset moves),
     * the new sessions and turns are recorded, and the document is queued again with every stage
     * pending. Stages keep their output; each processes only what it has not seen yet.
     */
    void appendSessions(UUID id, String suffix, String contentHash, int charCount, List<RenderedSession> sessions,
            List<RenderedTurn> turns) {
        jdbc.sql("UPDATE document_text SET text = text || ? WHERE document_id = ?").params(suffix, id).update();
        jdbc.sql("""
                UPDATE document SET content_hash = ?, char_count = ?, status = 'QUEUED', failure_reason = NULL, updated_at = now()
                WHERE id = ?""").params(contentHash, charCount, id).update();
        insertSessions(id, sessions);
        insertTurns(id, turns);
        jdbc.sql("""
                UPDATE ingestion_stage SET status = 'PENDING', message = NULL, attempts = 0, retry_at = NULL,
                       generation = generation + 1, updated_at = now()
                WHERE document_id = ?""")
                .param(id).update();
    }

    /** Length of the canonical text, which only ever grows: a cached text of another length is stale. */
    Optional<Integer> charCount(UUID id) {
        return jdbc.sql("SELECT char_count FROM document WHERE id = ?").param(id).query(Integer.class).optional();
    }

    Optional<UUID> findByContentHash(UUID tenantId, String hash) {
        return jdbc.sql("SELECT id FROM document WHERE tenant_id = ? AND content_hash = ?")
                .params(tenantId, hash).query(UUID.class).optional();
    }

    Optional<DocumentInfo> find(UUID id) {
        return jdbc.sql("SELECT * FROM document WHERE id = ?").param(id).query(INFO).optional();
    }

    List<DocumentInfo> findAll(UUID tenantId, List<UUID> ids) {
        return jdbc.sql("SELECT * FROM document WHERE tenant_id = ? AND id = ANY(?)")
                .params(tenantId, ids.toArray(UUID[]::new)).query(INFO).list();
    }

    Optional<DocumentView> view(UUID tenantId, UUID id) {
        return jdbc.sql("SELECT * FROM document WHERE tenant_id = ? AND id = ?").params(tenantId, id)
                .query(this::toView).optional()
                .map(v -> withStages(v, stages(id).stream().map(StageState::view).toList()));
    }

    List<DocumentView> list(UUID tenantId, long offset, int limit) {
        return jdbc.sql("SELECT * FROM document WHERE tenant_id = ? ORDER BY created_at DESC, id OFFSET ? LIMIT ?")
                .params(tenantId, offset, limit).query(this::toView).list();
    }

    long count(UUID tenantId) {
        return jdbc.sql("SELECT count(*) FROM document WHERE tenant_id = ?").param(tenantId).query(Long.class).single();
    }

    boolean delete(UUID tenantId, UUID id) {
        // Everything derived from the document goes with it through ON DELETE CASCADE.
        return jdbc.sql("DELETE FROM document WHERE tenant_id = ? AND id = ?").params(tenantId, id).update() > 0;
    }

    Optional<String> text(UUID id) {
        return jdbc.sql("SELECT text FROM document_text WHERE document_id = ?").param(id).query(String.class).optional();
    }

    CanonicalText canonical(UUID id) {
        String text = text(id).orElseThrow(() -> new IllegalStateException("document " + id + " has no text"));
        List<RenderedSession> sessions = jdbc.sql("""
                SELECT * FROM conversation_session WHERE document_id = ? ORDER BY session_index""").param(id)
                .query((rs, n) -> new RenderedSession(rs.getInt("session_index"), rs.getString("session_id"),
                        rs.getString("date_time"), new Span(rs.getInt("start_offset"), rs.getInt("end_offset"))))
                .list();
        List<RenderedTurn> turns = jdbc.sql("""
                SELECT * FROM conversation_turn WHERE document_id = ? ORDER BY start_offset""").param(id)
                .query((rs, n) -> new RenderedTurn(rs.getString("turn_id"), rs.getInt("session_index"),
                        rs.getString("session_id"), rs.getInt("turn_index"), rs.getString("speaker"),
                        new Span(rs.getInt("start_offset"), rs.getInt("end_offset"))))
                .list();
        return new CanonicalText(text, sessions, turns);
    }

    List<DocumentResponses.TurnSpan> turns(UUID documentId) {
        return jdbc.sql("""
                SELECT turn_id, session_id, speaker, start_offset, end_offset FROM conversation_turn
                WHERE document_id = ? ORDER BY start_offset""")
                .param(documentId)
                .query((rs, i) -> new DocumentResponses.TurnSpan(rs.getString(1), rs.getString(2), rs.getString(3), rs.getInt(4), rs.getInt(5)))
                .list();
    }

    Optional<String> turnAt(UUID documentId, Span span) {
        return jdbc.sql("""
                SELECT turn_id FROM conversation_turn
                WHERE document_id = ? AND start_offset <= ? AND end_offset >= ?
                ORDER BY start_offset DESC LIMIT 1""")
                .params(documentId, span.start(), span.end()).query(String.class).optional();
    }

    @Transactional
    void replaceSegmentation(UUID documentId, Segmentation segmentation) {
        deleteSegmentation(documentId);
        appendSegmentation(documentId, segmentation);
    }

    /** Adds chunks and pages after the stored ones (a conversation that grew), in one transaction. */
    @Transactional
    void appendSegmentation(UUID documentId, Segmentation segmentation) {
        List<Segmentation.Chunk> chunks = segmentation.chunks();
        jdbcTemplate.batchUpdate("""
                INSERT INTO chunk (document_id, ordinal, page_ordinal, start_offset, end_offset, text, token_count, turn_ids)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)""", new BatchPreparedStatementSetter() {
            @Override
            public void setValues(PreparedStatement ps, int i) throws SQLException {
                Segmentation.Chunk c = chunks.get(i);
                ps.setObject(1, documentId);
                ps.setInt(2, c.ordinal());
                ps.setInt(3, c.pageOrdinal());
                ps.setInt(4, c.span().start());
                ps.setInt(5, c.span().end());
                ps.setString(6, c.text());
                ps.setInt(7, c.tokens());
                Array turnIds = ps.getConnection().createArrayOf("text", c.turnIds().toArray());
                ps.setArray(8, turnIds);
            }

            @Override
            public int getBatchSize() {
                return chunks.size();
            }
        });
        jdbcTemplate.batchUpdate("""
                INSERT INTO page (document_id, ordinal, first_chunk, last_chunk, start_offset, end_offset, token_count, session_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)""", segmentation.pages(), 1000, (ps, p) -> {
            ps.setObject(1, documentId);
            ps.setInt(2, p.ordinal());
            ps.setInt(3, p.firstChunk());
            ps.setInt(4, p.lastChunk());
            ps.setInt(5, p.span().start());
            ps.setInt(6, p.span().end());
            ps.setInt(7, p.tokens());
            ps.setString(8, p.sessionId());
        });
        refreshCounts(documentId);
    }

    @Transactional
    void deleteSegmentation(UUID documentId) {
        jdbc.sql("DELETE FROM page WHERE document_id = ?").param(documentId).update();
        jdbc.sql("DELETE FROM chunk WHERE document_id = ?").param(documentId).update();
        refreshCounts(documentId);
    }

    /** Where the stored segmentation ends: the end of its last chunk, and the next chunk and page ordinals. */
    Segmenter.Continuation segmentationEnd(UUID documentId) {
        return jdbc.sql("""
                SELECT coalesce((SELECT max(end_offset) FROM chunk WHERE document_id = ?), 0) AS end_offset,
                       coalesce((SELECT max(ordinal) + 1 FROM chunk WHERE document_id = ?), 0) AS next_chunk,
                       coalesce((SELECT max(ordinal) + 1 FROM page WHERE document_id = ?), 0) AS next_page""")
                .params(documentId, documentId, documentId)
                .query((rs, n) -> new Segmenter.Continuation(rs.getInt("end_offset"), rs.getInt("next_chunk"), rs.getInt("next_page")))
                .single();
    }

    void refreshCounts(UUID documentId) {
        jdbc.sql("""
                UPDATE document SET chunk_count = s.n, token_count = s.tokens, term_total = s.terms, updated_at = now()
                FROM (SELECT count(*) n, coalesce(sum(token_count), 0) tokens, coalesce(sum(term_count), 0) terms
                      FROM chunk WHERE document_id = ?) s
                WHERE id = ?""").params(documentId, documentId).update();
        // Recomputed whole rather than patched, so it can never drift from the chunks (see V6).
        jdbc.sql("DELETE FROM document_lexeme WHERE document_id = ?").param(documentId).update();
        jdbc.sql("""
                INSERT INTO document_lexeme (document_id, lexeme, df)
                SELECT c.document_id, u.lexeme, count(*) FROM chunk c CROSS JOIN LATERAL unnest(c.tsv) u
                WHERE c.document_id = ? GROUP BY c.document_id, u.lexeme""").param(documentId).update();
    }

    void markStatus(UUID id, DocumentStatus status, String reason) {
        jdbc.sql("UPDATE document SET status = ?, failure_reason = ?, updated_at = now() WHERE id = ?")
                .params(status.name(), reason, id).update();
    }

    List<StageState> stages(UUID documentId) {
        return jdbc.sql("SELECT * FROM ingestion_stage WHERE document_id = ? ORDER BY position").param(documentId)
                .query(STAGE).list();
    }

    /** The named stages of several documents, for readiness checks. */
    List<StageState> stages(List<UUID> documentIds, Collection<String> names) {
        return jdbc.sql("SELECT * FROM ingestion_stage WHERE document_id = ANY(?) AND stage = ANY(?) ORDER BY position")
                .params(documentIds.toArray(UUID[]::new), names.toArray(String[]::new))
                .query(STAGE).list();
    }

    private static final RowMapper<StageState> STAGE = (rs, n) -> new StageState(rs.getObject("document_id", UUID.class),
            rs.getString("stage"), rs.getString("kind"), rs.getString("status"), rs.getInt("done"), rs.getInt("total"),
            rs.getString("message"), rs.getInt("attempts"),
            rs.getTimestamp("retry_at") == null ? null : rs.getTimestamp("retry_at").toInstant(),
            rs.getInt("generation"), rs.getBoolean("requested"));

    /** Adds rows for stages that appeared since the document was created (new stage beans), and keeps kinds and order current. */
    void ensureStages(UUID documentId, List<StageDef> stages) {
        for (int i = 0; i < stages.size(); i++) {
            jdbc.sql("""
                    INSERT INTO ingestion_stage (document_id, stage, position, status, kind) VALUES (?, ?, ?, 'PENDING', ?)
                    ON CONFLICT (document_id, stage) DO UPDATE SET position = excluded.position, kind = excluded.kind""")
                    .params(documentId, stages.get(i).name(), i, stages.get(i).kind()).update();
        }
    }

    void markStage(UUID documentId, String stage, String status, String message) {
        jdbc.sql("UPDATE ingestion_stage SET status = ?, message = ?, updated_at = now() WHERE document_id = ? AND stage = ?")
                .params(status, message, documentId, stage).update();
    }

    /** Marks a stage RUNNING and counts the attempt; returns the generation the run belongs to. */
    int startStage(UUID documentId, String stage) {
        return jdbc.sql("""
                UPDATE ingestion_stage SET status = 'RUNNING', message = NULL, attempts = attempts + 1, retry_at = NULL,
                       updated_at = now()
                WHERE document_id = ? AND stage = ? RETURNING generation""")
                .params(documentId, stage).query(Integer.class).optional().orElse(-1);
    }

    /**
     * Records how a run ended, unless the stage was reset while it ran (another generation): then the
     * newer request stands and the stage runs again. False when the outcome was not recorded.
     */
    boolean finishStage(UUID documentId, String stage, int generation, String status, String message, Instant retryAt) {
        return jdbc.sql("""
                UPDATE ingestion_stage SET status = ?, message = ?, retry_at = ?, updated_at = now()
                WHERE document_id = ? AND stage = ? AND generation = ?""")
                .params(status, message, retryAt == null ? null : Timestamp.from(retryAt), documentId, stage, generation)
                .update() == 1;
    }

    void stageProgress(UUID documentId, String stage, int done, int total) {
        jdbc.sql("UPDATE ingestion_stage SET done = ?, total = ?, updated_at = now() WHERE document_id = ? AND stage = ?")
                .params(done, total, documentId, stage).update();
    }

    /** Sets stages back to PENDING for a fresh run; {@code requested} marks on-demand stages someone asked for. */
    void resetStages(UUID documentId, List<String> stages, boolean requested) {
        jdbc.sql("""
                UPDATE ingestion_stage SET status = 'PENDING', done = 0, message = NULL, attempts = 0, retry_at = NULL,
                       generation = generation + 1, requested = requested OR ?, updated_at = now()
                WHERE document_id = ? AND stage = ANY(?)""")
                .params(requested, documentId, stages.toArray(String[]::new)).update();
    }

    /** Failed enrichment stages get a fresh set of attempts, due now. */
    void retryFailedEnrichments(UUID documentId) {
        jdbc.sql("""
                UPDATE ingestion_stage SET status = 'PENDING', attempts = 0, retry_at = NULL, generation = generation + 1,
                       updated_at = now()
                WHERE document_id = ? AND kind = 'enrichment' AND status = 'FAILED'""")
                .param(documentId).update();
    }

    private static final RowMapper<DocumentInfo> INFO = (rs, n) -> new DocumentInfo(
            rs.getObject("id", UUID.class), rs.getObject("tenant_id", UUID.class), rs.getString("title"),
            DocumentKind.valueOf(rs.getString("kind")), rs.getString("profile"),
            DocumentStatus.valueOf(rs.getString("status")), rs.getInt("char_count"), rs.getInt("token_count"),
            rs.getInt("chunk_count"));

    private DocumentView toView(ResultSet rs, int n) throws SQLException {
        return new DocumentView(rs.getObject("id", UUID.class), rs.getString("title"),
                DocumentKind.valueOf(rs.getString("kind")), rs.getString("profile"),
                DocumentStatus.valueOf(rs.getString("status")), rs.getString("failure_reason"),
                json.readValue(rs.getString("metadata"), new TypeReference<Map<String, Object>>() { }),
                rs.getInt("char_count"), rs.getInt("token_count"), rs.getInt("chunk_count"),
                instant(rs.getTimestamp("created_at")), instant(rs.getTimestamp("updated_at")), null);
    }

    private static DocumentView withStages(DocumentView v, List<StageView> stages) {
        return new DocumentView(v.id(), v.title(), v.kind(), v.profile(), v.status(), v.failureReason(), v.metadata(),
                v.charCount(), v.tokenCount(), v.chunkCount(), v.createdAt(), v.updatedAt(), stages);
    }

    private static java.time.Instant instant(Timestamp ts) {
        return ts == null ? null : ts.toInstant();
    }
}
