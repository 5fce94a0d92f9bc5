package io.lorekeeper.document;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.stereotype.Component;

import io.lorekeeper.document.DocumentRequests.CreateDocument;
import io.lorekeeper.document.intake.DocumentIntake;

/**
 * The document operations other entry points (the MCP server) offer, with the same validation,
 * de-duplication and ingestion as {@code POST /v1/documents}. Every call is scoped to the tenant
 * passed in.
 */
@Component
public class DocumentCatalog {

    private final DocumentIntake intake;
    private final DocumentViews views;

    DocumentCatalog(DocumentIntake intake, DocumentViews views) {
        this.intake = intake;
        this.views = views;
    }

    /** A document as listed: enough to pick one and see whether it can be asked about yet. */
    public record Entry(UUID id, String title, DocumentKind kind, DocumentStatus status, int charCount) {}

    /** The outcome of adding a text: {@code created} is false when the identical text was already stored. */
    public record Added(UUID id, DocumentStatus status, boolean created) {}

    public List<Entry> newest(UUID tenantId, int limit) {
        return views.list(tenantId, 0, limit).stream()
                .map(d -> new Entry(d.id(), d.title(), d.kind(), d.status(), d.charCount()))
                .toList();
    }

    /** Validates and stores a text (the tenant is the caller's, as for the REST API) and queues its ingestion. */
    public Added addText(String title, String text, String profile) {
        DocumentResponses.Accepted accepted = intake.create(new CreateDocument(title, text, null, Map.of(), profile));
        return new Added(accepted.id(), accepted.status(), accepted.created());
    }

    /**
     * Adds a file (.txt, .md, PDF, DOCX, HTML or EPUB) as an upload to {@code POST /v1/documents/files}
     * would: the format detected from the bytes must match the name's extension.
     */
    public Added addFile(String fileName, byte[] content, String title, String profile) {
        DocumentResponses.Accepted accepted = intake.createFromUpload(fileName, content, title, profile, null);
        return new Added(accepted.id(), accepted.status(), accepted.created());
    }
}
