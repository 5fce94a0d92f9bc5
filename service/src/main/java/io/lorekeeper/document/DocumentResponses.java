package io.lorekeeper.document;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.swagger.v3.oas.annotations.media.Schema;

/** Response bodies of the document API. */
public final class DocumentResponses {

    private DocumentResponses() {}

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "Document", description = "A document, its ingestion progress per stage, and its metadata")
    public record DocumentView(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            UUID id,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            String title,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            DocumentKind kind,

            @Schema(
                    requiredMode = Schema.RequiredMode.REQUIRED,
                    allowableValues = {IndexProfiles.STANDARD, IndexProfiles.RETRIEVAL_ONLY, IndexProfiles.DEEP})
            String profile,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            DocumentStatus status,

            String failureReason,
            Map<String, Object> metadata,
            int charCount,
            int tokenCount,
            int chunkCount,
            Instant createdAt,
            Instant updatedAt,
            List<StageView> stages,

            @Schema(description = "The file the document was extracted from (uploads only)")
            SourceFileView file,

            @Schema(
                    description =
                            "Pages (PDF) and sections (headings of DOCX, EPUB and HTML) as spans of the canonical text, in order; "
                                    + "absent when the document has none")
            List<SectionView> sections) {}

    /**
     * The uploaded file a document's text was extracted from. Its bytes are not kept: the hash and
     * size let a client find and re-upload the same file to extract it again.
     */
    @Schema(
            name = "DocumentFile",
            description = "The uploaded file the text was extracted from (its bytes are not kept)")
    public record SourceFileView(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            String name,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "Detected from the content")
            String mediaType,

            @Schema(description = "Size in bytes") long size,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "SHA-256 of the file, lowercase hex")
            String sha256) {}

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(
            name = "DocumentSection",
            description =
                    "A page or a section of an uploaded file: [start, end) of the canonical text in UTF-16 code units")
    public record SectionView(
            @Schema(
                    requiredMode = Schema.RequiredMode.REQUIRED,
                    allowableValues = {"page", "section"})
            String kind,

            @Schema(description = "1-based page number (pages)")
            Integer page,

            @Schema(description = "The heading's text (sections)")
            String title,

            @Schema(description = "Heading level, 1 to 6 (sections)")
            Integer level,

            int start,
            int end) {}

    /**
     * @param kind     {@code retrieval} (the document is READY once these are done) or {@code enrichment}
     *                 (an LLM-built memory with a state of its own)
     * @param status   PENDING, RUNNING, DONE, SKIPPED (message says why and how to build it) or FAILED (message
     *                 says why; {@code retryAt} when the next attempt is scheduled, absent when attempts are spent)
     * @param attempts runs started since the stage was last reset
     * @param failed   items the latest run left without output because the model's reply for them stayed
     *                 unusable (the stage is DONE with gaps; a reindex without stages tries them again)
     * @param failures the first few of those items, each "item: reason"
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "DocumentStage", description = "One ingestion stage (memory) of a document")
    public record StageView(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            String name,

            @Schema(
                    requiredMode = Schema.RequiredMode.REQUIRED,
                    allowableValues = {"retrieval", "enrichment"})
            String kind,

            @Schema(
                    requiredMode = Schema.RequiredMode.REQUIRED,
                    allowableValues = {"PENDING", "RUNNING", "DONE", "SKIPPED", "FAILED"})
            String status,

            int done,
            int total,
            String message,
            Integer attempts,
            Instant retryAt,

            @Schema(
                    description =
                            "Items the latest run left without output because the model's reply for them stayed unusable; "
                                    + "the stage still ends DONE, and a reindex without stages tries these gaps again")
            Integer failed,

            @Schema(description = "The first few of those items, each \"item: reason\"")
            List<String> failures) {}

    @Schema(description = "One page of documents, newest first")
    public record DocumentPage(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            List<DocumentView> items,

            int page,
            int size,
            long total) {}

    @Schema(description = "The canonical text in [start, end), offsets in UTF-16 code units")
    public record TextSpan(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            UUID documentId,

            int start,
            int end,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            String text) {}

    @Schema(name = "DocumentAccepted", description = "The document a create or upload stored (or found already stored)")
    public record Accepted(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            UUID id,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            DocumentStatus status,

            @Schema(description = "false when identical content was already stored and that document is returned")
            boolean created) {}

    /** Where a conversation turn sits in the canonical text: {@code [start, end)}. */
    @Schema(description = "Where a conversation turn sits in the canonical text: [start, end) in UTF-16 code units")
    public record TurnSpan(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            String turnId,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            String sessionId,

            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            String speaker,

            int start,
            int end) {}

    /** The conversation's id and new status, and what each appended session became. */
    public record SessionsAppended(UUID id, DocumentStatus status, List<AppendedSession> sessions) {}

    /** @param number 1-based position in the conversation, as in the {@code [Session n]} line */
    public record AppendedSession(String id, int number, int start, int end, List<String> turnIds) {}
}
