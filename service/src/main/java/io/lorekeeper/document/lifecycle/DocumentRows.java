package io.lorekeeper.document.lifecycle;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import io.lorekeeper.document.DocumentInfo;
import io.lorekeeper.document.DocumentKind;
import io.lorekeeper.document.DocumentStatus;
import io.lorekeeper.document.StageStatus;

/**
 * Documents and their stages as every concern reads them: the document row as {@link DocumentInfo},
 * its stages as {@link StageState}. Plain SQL, not the aggregate: reads need no version and no lock.
 */
@Repository
public class DocumentRows {

    private final JdbcClient jdbc;

    DocumentRows(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    public Optional<DocumentInfo> find(UUID id) {
        return jdbc.sql("SELECT * FROM document WHERE id = ?")
                .param(id)
                .query(INFO)
                .optional();
    }

    public List<DocumentInfo> findAll(UUID tenantId, List<UUID> ids) {
        return jdbc.sql("SELECT * FROM document WHERE tenant_id = ? AND id = ANY(?)")
                .params(tenantId, ids.toArray(UUID[]::new))
                .query(INFO)
                .list();
    }

    public Optional<UUID> findByContentHash(UUID tenantId, String hash) {
        return jdbc.sql("SELECT id FROM document WHERE tenant_id = ? AND content_hash = ?")
                .params(tenantId, hash)
                .query(UUID.class)
                .optional();
    }

    /** Length of the canonical text, which only ever grows: a cached text of another length is stale. */
    public Optional<Integer> charCount(UUID id) {
        return jdbc.sql("SELECT char_count FROM document WHERE id = ?")
                .param(id)
                .query(Integer.class)
                .optional();
    }

    public List<StageState> stages(UUID documentId) {
        return jdbc.sql("SELECT * FROM ingestion_stage WHERE document_id = ? ORDER BY position")
                .param(documentId)
                .query(STAGE)
                .list();
    }

    /** The named stages of several documents, for readiness checks. */
    public List<StageState> stages(List<UUID> documentIds, Collection<String> names) {
        return jdbc.sql("SELECT * FROM ingestion_stage WHERE document_id = ANY(?) AND stage = ANY(?) ORDER BY position")
                .params(documentIds.toArray(UUID[]::new), names.toArray(String[]::new))
                .query(STAGE)
                .list();
    }

    private static final RowMapper<DocumentInfo> INFO = (rs, n) -> info(rs);

    /** A {@code document} row, read by every mapper of one (the API's views add their own columns to it). */
    public static DocumentInfo info(ResultSet rs) throws SQLException {
        return new DocumentInfo(
                rs.getObject("id", UUID.class),
                rs.getObject("tenant_id", UUID.class),
                rs.getString("title"),
                DocumentKind.valueOf(rs.getString("kind")),
                rs.getString("profile"),
                DocumentStatus.valueOf(rs.getString("status")),
                rs.getInt("char_count"),
                rs.getInt("token_count"),
                rs.getInt("chunk_count"));
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
}
