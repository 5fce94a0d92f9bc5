package io.lorekeeper.document;

import java.sql.Array;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;

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
import io.lorekeeper.document.files.ExtractedText;
import io.lorekeeper.document.stage.StageRun;
import io.lorekeeper.platform.Transitions;
import io.lorekeeper.text.Span;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Documents as their readers see them, the changes of state made through the {@link Document}
 * aggregate ({@link #change}, {@link #insert}), and SQL for the bulk rows derived from a document:
 * its text, conversation structure, segmentation, keyword statistics and stage progress.
 */
@Repository
class DocumentStore {

    private final JdbcClient jdbc;
    private final JdbcTemplate jdbcTemplate;
    private final JsonMapper json;
    private final DocumentRepository documents;
    private final Transitions transitions;

    DocumentStore(
            JdbcClient jdbc,
            JdbcTemplate jdbcTemplate,
            JsonMapper json,
            DocumentRepository documents,
            Transitions transitions) {
        this.jdbc = jdbc;
        this.jdbcTemplate = jdbcTemplate;
        this.json = json;
        this.documents = documents;
        this.transitions = transitions;
    }

    /**
     * Applies a job's transition in a transaction of its own, again on the fresh state when another
     * writer (a request, another replica) got there first; empty when the document is gone.
     *
     * @throws io.lorekeeper.platform.IllegalTransitionException when the document's state refuses it
     */
    boolean change(UUID id, Consumer<Document> transition) {
        return transitions.apply(documents, id, transition).isPresent();
    }

    /** {@link #change}, with what the transition returns (a stage run's generation). */
    <T> Optional<T> changeAndGet(UUID id, Function<Document, T> transition) {
        AtomicReference<T> result = new AtomicReference<>();
        return transitions
                .apply(documents, id, document -> result.set(transition.apply(document)))
                .map(d -> result.get());
    }

    /** Writes the changes made to managed aggregates in the current transaction now rather than at its commit. */
    void flush() {
        documents.flush();
    }

    /** The tenant's document aggregate, its row locked until the surrounding transaction ends. */
    Optional<Document> lock(UUID tenantId, UUID id) {
        return documents.findLockedByIdAndTenantId(id, tenantId);
    }

    record NewDocument(
            UUID id,
            UUID tenantId,
            String title,
            DocumentKind kind,
            String profile,
            Map<String, Object> metadata,
            String contentHash,
            CanonicalText canonical) {}

    /** The file an upload was extracted from (its bytes are not kept). */
    record SourceFile(String fileName, String mediaType, long sizeBytes, String sha256) {}

    /** Records the uploaded file and the pages and sections of its text, in the caller's transaction. */
    void insertSource(UUID documentId, SourceFile source, List<ExtractedText.Section> sections) {
        jdbc.sql("""
                INSERT INTO document_file (document_id, file_name, media_type, size_bytes, sha256)
                VALUES (?, ?, ?, ?, ?)""")
                .params(documentId, source.fileName(), source.mediaType(), source.sizeBytes(), source.sha256())
                .update();
        jdbcTemplate.batchUpdate("""
                INSERT INTO document_section (document_id, ordinal, kind, page_number, title, level, start_offset, end_offset)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)""", sections, 1000, (ps, s) -> {
            ps.setObject(1, documentId);
            ps.setInt(2, s.ordinal());
            ps.setString(3, s.kind());
            ps.setObject(4, s.page());
            ps.setString(5, s.title());
            ps.setObject(6, s.level());
            ps.setInt(7, s.span().start());
            ps.setInt(8, s.span().end());
        });
    }

    Optional<DocumentResponses.SourceFileView> source(UUID documentId) {
        return jdbc.sql("SELECT file_name, media_type, size_bytes, sha256 FROM document_file WHERE document_id = ?")
                .param(documentId)
                .query((rs, i) -> new DocumentResponses.SourceFileView(
                        rs.getString(1), rs.getString(2), rs.getLong(3), rs.getString(4)))
                .optional();
    }

    List<ExtractedText.Section> sections(UUID documentId) {
        return jdbc.sql("""
                SELECT ordinal, kind, page_number, title, level, start_offset, end_offset FROM document_section
                WHERE document_id = ? ORDER BY ordinal""")
                .param(documentId)
                .query((rs, i) -> new ExtractedText.Section(
                        rs.getInt(1),
                        rs.getString(2),
                        (Integer) rs.getObject(3),
                        rs.getString(4),
                        (Integer) rs.getObject(5),
                        new Span(rs.getInt(6), rs.getInt(7))))
                .list();
    }

    /**
     * The turn that contains a span, the page it starts on and the innermost section (the latest
     * heading before it) it starts in.
     */
    Optional<Documents.Place> placeOf(UUID documentId, Span span) {
        // One round trip per citation, whatever the document is made of.
        List<Documents.Place> found = jdbc.sql("""
                SELECT (SELECT turn_id FROM conversation_turn
                        WHERE document_id = ? AND start_offset <= ? AND end_offset >= ?
                        ORDER BY start_offset DESC LIMIT 1),
                       (SELECT page_number FROM document_section
                        WHERE document_id = ? AND kind = 'page' AND start_offset <= ?
                        ORDER BY start_offset DESC, ordinal DESC LIMIT 1),
                       (SELECT title FROM document_section
                        WHERE document_id = ? AND kind = 'section' AND start_offset <= ?
                        ORDER BY start_offset DESC, ordinal DESC LIMIT 1)""")
                .params(documentId, span.start(), span.end(), documentId, span.start(), documentId, span.start())
                .query((rs, i) -> new Documents.Place(rs.getString(1), (Integer) rs.getObject(2), rs.getString(3)))
                .list();
        return found.stream()
                .filter(p -> p.turnId() != null || p.page() != null || p.section() != null)
                .findFirst();
    }

    /** A stage as the store records it: its name and whether it builds retrieval or an enrichment. */
    record StageDef(String name, boolean enrichment) {
        String kind() {
            return enrichment ? "enrichment" : "retrieval";
        }
    }

    @Transactional
    void insert(NewDocument doc, List<StageDef> stages) {
        // the row first (flushed): the text and conversation rows below reference it
        documents.saveAndFlush(Document.create(
                doc.id(),
                doc.tenantId(),
                doc.title(),
                doc.kind(),
                doc.profile(),
                json.valueToTree(doc.metadata()),
                doc.contentHash(),
                doc.canonical().text().length(),
                stages));
        jdbc.sql("INSERT INTO document_text (document_id, text) VALUES (?, ?)")
                .params(doc.id(), doc.canonical().text())
                .update();
        insertSessions(doc.id(), doc.canonical().sessions());
        insertTurns(doc.id(), doc.canonical().turns());
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

    /**
     * Grows a conversation's text: {@code suffix} goes after the stored text (so no stored offset
     * moves) and the new sessions and turns are recorded. The document's own change (new hash,
     * queued again) is {@link Document#appendSessions}, in the same transaction.
     */
    void appendSessions(UUID id, String suffix, List<RenderedSession> sessions, List<RenderedTurn> turns) {
        jdbc.sql("UPDATE document_text SET text = text || ? WHERE document_id = ?")
                .params(suffix, id)
                .update();
        insertSessions(id, sessions);
        insertTurns(id, turns);
    }

    /** Length of the canonical text, which only ever grows: a cached text of another length is stale. */
    Optional<Integer> charCount(UUID id) {
        return jdbc.sql("SELECT char_count FROM document WHERE id = ?")
                .param(id)
                .query(Integer.class)
                .optional();
    }

    Optional<UUID> findByContentHash(UUID tenantId, String hash) {
        return jdbc.sql("SELECT id FROM document WHERE tenant_id = ? AND content_hash = ?")
                .params(tenantId, hash)
                .query(UUID.class)
                .optional();
    }

    Optional<DocumentInfo> find(UUID id) {
        return jdbc.sql("SELECT * FROM document WHERE id = ?")
                .param(id)
                .query(INFO)
                .optional();
    }

    List<DocumentInfo> findAll(UUID tenantId, List<UUID> ids) {
        return jdbc.sql("SELECT * FROM document WHERE tenant_id = ? AND id = ANY(?)")
                .params(tenantId, ids.toArray(UUID[]::new))
                .query(INFO)
                .list();
    }

    Optional<DocumentView> view(UUID tenantId, UUID id) {
        return jdbc.sql("SELECT * FROM document WHERE tenant_id = ? AND id = ?")
                .params(tenantId, id)
                .query(this::toView)
                .optional()
                .map(v ->
                        withStages(v, stages(id).stream().map(StageState::view).toList()));
    }

    List<DocumentView> list(UUID tenantId, long offset, int limit) {
        return jdbc.sql("SELECT * FROM document WHERE tenant_id = ? ORDER BY created_at DESC, id OFFSET ? LIMIT ?")
                .params(tenantId, offset, limit)
                .query(this::toView)
                .list();
    }

    long count(UUID tenantId) {
        return jdbc.sql("SELECT count(*) FROM document WHERE tenant_id = ?")
                .param(tenantId)
                .query(Long.class)
                .single();
    }

    /**
     * Deletes the tenant's document, and tells the other modules ({@link DocumentDeleted}) in the
     * same transaction. Everything derived from the document goes with it through ON DELETE CASCADE.
     */
    @Transactional
    boolean delete(UUID tenantId, UUID id) {
        return documents
                .findLockedByIdAndTenantId(id, tenantId)
                .map(document -> {
                    documents.delete(document.deleted());
                    return true;
                })
                .orElse(false);
    }

    Optional<String> text(UUID id) {
        return jdbc.sql("SELECT text FROM document_text WHERE document_id = ?")
                .param(id)
                .query(String.class)
                .optional();
    }

    CanonicalText canonical(UUID id) {
        String text = text(id).orElseThrow(() -> new IllegalStateException("document " + id + " has no text"));
        List<RenderedSession> sessions = jdbc.sql("""
                SELECT * FROM conversation_session WHERE document_id = ? ORDER BY session_index""")
                .param(id)
                .query((rs, n) -> new RenderedSession(
                        rs.getInt("session_index"),
                        rs.getString("session_id"),
                        rs.getString("date_time"),
                        new Span(rs.getInt("start_offset"), rs.getInt("end_offset"))))
                .list();
        List<RenderedTurn> turns = jdbc.sql("""
                SELECT * FROM conversation_turn WHERE document_id = ? ORDER BY start_offset""")
                .param(id)
                .query((rs, n) -> new RenderedTurn(
                        rs.getString("turn_id"),
                        rs.getInt("session_index"),
                        rs.getString("session_id"),
                        rs.getInt("turn_index"),
                        rs.getString("speaker"),
                        new Span(rs.getInt("start_offset"), rs.getInt("end_offset"))))
                .list();
        return new CanonicalText(text, sessions, turns);
    }

    List<DocumentResponses.TurnSpan> turns(UUID documentId) {
        return jdbc.sql("""
                SELECT turn_id, session_id, speaker, start_offset, end_offset FROM conversation_turn
                WHERE document_id = ? ORDER BY start_offset""")
                .param(documentId)
                .query((rs, i) -> new DocumentResponses.TurnSpan(
                        rs.getString(1), rs.getString(2), rs.getString(3), rs.getInt(4), rs.getInt(5)))
                .list();
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
                INSERT INTO chunk (document_id, ordinal, page_ordinal, start_offset, end_offset, text, token_count, turn_ids,
                                   lead, speakers)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""", new BatchPreparedStatementSetter() {
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
                Array turnIds =
                        ps.getConnection().createArrayOf("text", c.turnIds().toArray());
                ps.setArray(8, turnIds);
                ps.setString(9, c.lead());
                ps.setArray(
                        10,
                        ps.getConnection().createArrayOf("text", c.speakers().toArray()));
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
                .query((rs, n) -> new Segmenter.Continuation(
                        rs.getInt("end_offset"), rs.getInt("next_chunk"), rs.getInt("next_page")))
                .single();
    }

    void refreshCounts(UUID documentId) {
        jdbc.sql("""
                UPDATE document SET chunk_count = s.n, token_count = s.tokens, term_total = s.terms,
                       keyword_generation = keyword_generation + 1, updated_at = now()
                FROM (SELECT count(*) n, coalesce(sum(token_count), 0) tokens, coalesce(sum(term_count), 0) terms
                      FROM chunk WHERE document_id = ?) s
                WHERE id = ?""").params(documentId, documentId).update();
        // Recomputed whole rather than patched, so it can never drift from the chunks (see V6).
        jdbc.sql("DELETE FROM document_lexeme WHERE document_id = ?")
                .param(documentId)
                .update();
        jdbc.sql("""
                INSERT INTO document_lexeme (document_id, lexeme, df)
                SELECT c.document_id, u.lexeme, count(*) FROM chunk c CROSS JOIN LATERAL unnest(c.tsv) u
                WHERE c.document_id = ? GROUP BY c.document_id, u.lexeme""").param(documentId).update();
    }

    List<StageState> stages(UUID documentId) {
        return jdbc.sql("SELECT * FROM ingestion_stage WHERE document_id = ? ORDER BY position")
                .param(documentId)
                .query(STAGE)
                .list();
    }

    /** The named stages of several documents, for readiness checks. */
    List<StageState> stages(List<UUID> documentIds, Collection<String> names) {
        return jdbc.sql("SELECT * FROM ingestion_stage WHERE document_id = ANY(?) AND stage = ANY(?) ORDER BY position")
                .params(documentIds.toArray(UUID[]::new), names.toArray(String[]::new))
                .query(STAGE)
                .list();
    }

    private static final RowMapper<StageState> STAGE = (rs, n) -> new StageState(
            rs.getObject("document_id", UUID.class),
            rs.getString("stage"),
            rs.getString("kind"),
            StageStatus.valueOf(rs.getString("status")),
            rs.getInt("done"),
            rs.getInt("total"),
            rs.getString("message"),
            rs.getInt("attempts"),
            rs.getTimestamp("retry_at") == null
                    ? null
                    : rs.getTimestamp("retry_at").toInstant(),
            rs.getInt("generation"),
            rs.getBoolean("requested"),
            rs.getInt("failed"),
            List.of((String[]) rs.getArray("failures").getArray()));

    /**
     * Records a running stage's progress. A bulk UPDATE beside the aggregate, not a change of it:
     * progress comes many times a second from stages that run while other changes are made to the
     * same document (an append, a reindex of an enrichment, another stage's outcome), and as a
     * versioned change each report would make those conflict and retry. It writes only done and
     * total, which no transition reads, and the stage entity's dynamic update never writes them
     * back except when a rebuild zeroes them.
     */
    void stageProgress(UUID documentId, String stage, int done, int total) {
        jdbc.sql(
                        "UPDATE ingestion_stage SET done = ?, total = ?, updated_at = now() WHERE document_id = ? AND stage = ?")
                .params(done, total, documentId, stage)
                .update();
    }

    /** How many gaps a stage names in its view; the count goes on beyond them. */
    static final int LISTED_FAILURES = 10;

    /**
     * Records one item a running stage left without output (see {@link StageRun#itemFailed}): a bulk
     * UPDATE beside the aggregate, like {@link #stageProgress}, since items fail from parallel workers
     * while other changes are made to the document. Only the run of {@code generation} records: a run
     * overtaken by a reset writes nothing over the newer request.
     */
    void itemFailed(UUID documentId, String stage, int generation, String failure) {
        jdbc.sql("""
                UPDATE ingestion_stage
                SET failed = failed + 1,
                    failures = CASE WHEN cardinality(failures) < ? THEN failures || ?::text ELSE failures END,
                    updated_at = now()
                WHERE document_id = ? AND stage = ? AND generation = ?""")
                .params(LISTED_FAILURES, failure, documentId, stage, generation)
                .update();
    }

    /** A run of the stage begins: the gaps it will try again are no longer counted until it leaves them again. */
    void clearItemFailures(UUID documentId, String stage, int generation) {
        jdbc.sql("""
                UPDATE ingestion_stage SET failed = 0, failures = '{}'
                WHERE document_id = ? AND stage = ? AND generation = ? AND (failed <> 0 OR cardinality(failures) <> 0)""").params(documentId, stage, generation).update();
    }

    private static final RowMapper<DocumentInfo> INFO = (rs, n) -> new DocumentInfo(
            rs.getObject("id", UUID.class),
            rs.getObject("tenant_id", UUID.class),
            rs.getString("title"),
            DocumentKind.valueOf(rs.getString("kind")),
            rs.getString("profile"),
            DocumentStatus.valueOf(rs.getString("status")),
            rs.getInt("char_count"),
            rs.getInt("token_count"),
            rs.getInt("chunk_count"));

    private DocumentView toView(ResultSet rs, int n) throws SQLException {
        return new DocumentView(
                rs.getObject("id", UUID.class),
                rs.getString("title"),
                DocumentKind.valueOf(rs.getString("kind")),
                rs.getString("profile"),
                DocumentStatus.valueOf(rs.getString("status")),
                rs.getString("failure_reason"),
                json.readValue(rs.getString("metadata"), new TypeReference<Map<String, Object>>() {}),
                rs.getInt("char_count"),
                rs.getInt("token_count"),
                rs.getInt("chunk_count"),
                instant(rs.getTimestamp("created_at")),
                instant(rs.getTimestamp("updated_at")),
                null,
                null,
                null);
    }

    private DocumentView withStages(DocumentView v, List<StageView> stages) {
        List<DocumentResponses.SectionView> sections = sections(v.id()).stream()
                .map(s -> new DocumentResponses.SectionView(
                        s.kind(),
                        s.page(),
                        s.title(),
                        s.level(),
                        s.span().start(),
                        s.span().end()))
                .toList();
        return new DocumentView(
                v.id(),
                v.title(),
                v.kind(),
                v.profile(),
                v.status(),
                v.failureReason(),
                v.metadata(),
                v.charCount(),
                v.tokenCount(),
                v.chunkCount(),
                v.createdAt(),
                v.updatedAt(),
                stages,
                source(v.id()).orElse(null),
                sections.isEmpty() ? null : sections);
    }

    private static java.time.Instant instant(Timestamp ts) {
        return ts == null ? null : ts.toInstant();
    }
}
