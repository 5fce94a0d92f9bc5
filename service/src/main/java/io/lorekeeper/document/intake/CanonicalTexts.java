package io.lorekeeper.document.intake;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import io.lorekeeper.document.files.ExtractedText;
import io.lorekeeper.document.intake.CanonicalText.RenderedSession;
import io.lorekeeper.document.intake.CanonicalText.RenderedTurn;
import io.lorekeeper.document.lifecycle.Document;
import io.lorekeeper.text.Span;

/**
 * The canonical text every offset points into ({@code document_text}) and what the intake records
 * with it as spans of it: a conversation's sessions and turns ({@code conversation_session},
 * {@code conversation_turn}), an uploaded file ({@code document_file}: its name, type, size and hash;
 * its bytes are not kept) and its pages and sections ({@code document_section}). Written by the
 * intake, grown by appended sessions, read by segmentation and by every citation (the text cached,
 * since citations and answers read it constantly).
 */
@Repository
public class CanonicalTexts {

    private final JdbcClient jdbc;
    private final JdbcTemplate jdbcTemplate;
    private final Cache<UUID, String> texts = Caffeine.newBuilder()
            .maximumWeight(256L * 1024 * 1024)
            .weigher((UUID id, String text) -> 2 * text.length())
            .expireAfterAccess(Duration.ofMinutes(30))
            .build();

    CanonicalTexts(JdbcClient jdbc, JdbcTemplate jdbcTemplate) {
        this.jdbc = jdbc;
        this.jdbcTemplate = jdbcTemplate;
    }

    /** Stores a new document's text and conversation structure, after its row, in the caller's transaction. */
    public void insert(UUID documentId, CanonicalText canonical) {
        jdbc.sql("INSERT INTO document_text (document_id, text) VALUES (?, ?)")
                .params(documentId, canonical.text())
                .update();
        insertSessions(documentId, canonical.sessions());
        insertTurns(documentId, canonical.turns());
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
    public void append(UUID id, String suffix, List<RenderedSession> sessions, List<RenderedTurn> turns) {
        jdbc.sql("UPDATE document_text SET text = text || ? WHERE document_id = ?")
                .params(suffix, id)
                .update();
        insertSessions(id, sessions);
        insertTurns(id, turns);
    }

    /**
     * The text, {@code length} characters long. A conversation's text grows when sessions are
     * appended, possibly through another replica whose eviction this cache never sees; the text only
     * ever grows, so a cached copy is current exactly when its length is the stored one.
     */
    public Optional<String> text(UUID id, int length) {
        String text = texts.getIfPresent(id);
        if (text == null || text.length() != length) {
            text = stored(id).orElse(null);
            if (text == null) {
                return Optional.empty();
            }
            texts.put(id, text);
        }
        return Optional.of(text);
    }

    /** Forgets the cached text of a document that grew or was deleted here. */
    public void evict(UUID id) {
        texts.invalidate(id);
    }

    private Optional<String> stored(UUID id) {
        return jdbc.sql("SELECT text FROM document_text WHERE document_id = ?")
                .param(id)
                .query(String.class)
                .optional();
    }

    public CanonicalText canonical(UUID id) {
        String text = stored(id).orElseThrow(() -> new IllegalStateException("document " + id + " has no text"));
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

    /** The file an upload was extracted from (its bytes are not kept). */
    public record SourceFile(String fileName, String mediaType, long sizeBytes, String sha256) {}

    /** Records the uploaded file and the pages and sections of its text, in the caller's transaction. */
    public void insertSource(UUID documentId, SourceFile source, List<ExtractedText.Section> sections) {
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

    public List<ExtractedText.Section> sections(UUID documentId) {
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
}
