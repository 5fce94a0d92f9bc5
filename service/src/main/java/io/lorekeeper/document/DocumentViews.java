package io.lorekeeper.document;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import io.lorekeeper.document.DocumentResponses.DocumentView;
import io.lorekeeper.document.DocumentResponses.StageView;
import io.lorekeeper.document.intake.CanonicalTexts;
import io.lorekeeper.document.lifecycle.DocumentRows;
import io.lorekeeper.document.lifecycle.StageState;
import io.lorekeeper.text.Span;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * The API's reads: documents as their readers see them (a view with its stages, source file and
 * sections; pages of the list), a conversation's turns, and where a cited span lies.
 */
@Repository
class DocumentViews {

    private final JdbcClient jdbc;
    private final JsonMapper json;
    private final DocumentRows rows;
    private final CanonicalTexts texts;

    DocumentViews(JdbcClient jdbc, JsonMapper json, DocumentRows rows, CanonicalTexts texts) {
        this.jdbc = jdbc;
        this.json = json;
        this.rows = rows;
        this.texts = texts;
    }

    Optional<DocumentView> view(UUID tenantId, UUID id) {
        return jdbc.sql("SELECT * FROM document WHERE tenant_id = ? AND id = ?")
                .params(tenantId, id)
                .query(this::toView)
                .optional()
                .map(v -> withStages(
                        v, rows.stages(id).stream().map(DocumentViews::stage).toList()));
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

    List<DocumentResponses.TurnSpan> turns(UUID documentId) {
        return jdbc.sql("""
                SELECT turn_id, session_id, speaker, start_offset, end_offset FROM conversation_turn
                WHERE document_id = ? ORDER BY start_offset""")
                .param(documentId)
                .query((rs, i) -> new DocumentResponses.TurnSpan(
                        rs.getString(1), rs.getString(2), rs.getString(3), rs.getInt(4), rs.getInt(5)))
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

    private Optional<DocumentResponses.SourceFileView> source(UUID documentId) {
        return jdbc.sql("SELECT file_name, media_type, size_bytes, sha256 FROM document_file WHERE document_id = ?")
                .param(documentId)
                .query((rs, i) -> new DocumentResponses.SourceFileView(
                        rs.getString(1), rs.getString(2), rs.getLong(3), rs.getString(4)))
                .optional();
    }

    private static StageView stage(StageState s) {
        return new StageView(
                s.name(),
                s.kind(),
                s.status().name(),
                s.done(),
                s.total(),
                s.message(),
                s.attempts() == 0 ? null : s.attempts(),
                s.retryAt(),
                s.failed() == 0 ? null : s.failed(),
                s.failures().isEmpty() ? null : s.failures());
    }

    private DocumentView toView(ResultSet rs, int n) throws SQLException {
        DocumentInfo info = DocumentRows.info(rs);
        return new DocumentView(
                info.id(),
                info.title(),
                info.kind(),
                info.profile(),
                info.status(),
                rs.getString("failure_reason"),
                json.readValue(rs.getString("metadata"), new TypeReference<Map<String, Object>>() {}),
                info.charCount(),
                info.tokenCount(),
                info.chunkCount(),
                instant(rs.getTimestamp("created_at")),
                instant(rs.getTimestamp("updated_at")),
                null,
                null,
                null);
    }

    private DocumentView withStages(DocumentView v, List<StageView> stages) {
        List<DocumentResponses.SectionView> sections = texts.sections(v.id()).stream()
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

    private static Instant instant(Timestamp ts) {
        return ts == null ? null : ts.toInstant();
    }
}
