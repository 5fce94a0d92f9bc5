package io.lorekeeper.document;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.UUID;

import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RequestPart;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.multipart.MultipartFile;
import org.springframework.web.multipart.MultipartHttpServletRequest;

import io.lorekeeper.document.DocumentRequests.AppendSessions;
import io.lorekeeper.document.DocumentRequests.CreateConversation;
import io.lorekeeper.document.DocumentRequests.CreateDocument;
import io.lorekeeper.document.DocumentRequests.CreateTextDocument;
import io.lorekeeper.document.DocumentRequests.Reindex;
import io.lorekeeper.document.DocumentResponses.Accepted;
import io.lorekeeper.document.DocumentResponses.DocumentPage;
import io.lorekeeper.document.DocumentResponses.DocumentView;
import io.lorekeeper.document.DocumentResponses.SessionsAppended;
import io.lorekeeper.document.DocumentResponses.TextSpan;
import io.lorekeeper.document.DocumentResponses.TurnSpan;
import io.lorekeeper.document.files.FileExtractor;
import io.lorekeeper.document.files.FileName;
import io.lorekeeper.document.intake.DocumentIntake;
import io.lorekeeper.document.intake.SessionAppender;
import io.lorekeeper.platform.ApiDocs;
import io.lorekeeper.platform.ApiProblem;
import io.lorekeeper.platform.LocationResponse;
import io.lorekeeper.security.CurrentTenant;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

@RestController
@RequestMapping("/v1/documents")
@Tag(name = "Documents", description = "Ingest texts and conversations; follow their ingestion")
class DocumentController {

    private final DocumentIntake intake;
    private final DocumentViews views;
    private final Documents documents;
    private final CurrentTenant tenant;
    private final SessionAppender appender;

    DocumentController(
            DocumentIntake intake,
            DocumentViews views,
            Documents documents,
            CurrentTenant tenant,
            SessionAppender appender) {
        this.intake = intake;
        this.views = views;
        this.documents = documents;
        this.tenant = tenant;
        this.appender = appender;
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(
            operationId = "createDocument",
            summary = "Add a text or a conversation",
            description =
                    "Give either `text` (CreateTextDocument) or `sessions` (CreateConversation); an empty `sessions` list "
                            + "counts as absent. Returns 202 and queues ingestion; re-posting identical content returns the stored "
                            + "document with 200. Files go to POST /v1/documents/files.",
            requestBody =
                    @io.swagger.v3.oas.annotations.parameters.RequestBody(
                            required = true,
                            content =
                                    @Content(
                                            mediaType = ApiDocs.JSON,
                                            schema =
                                                    @Schema(
                                                            oneOf = {CreateTextDocument.class, CreateConversation.class
                                                            }),
                                            examples = {
                                                @ExampleObject(name = "text", summary = "A text document", value = """
                                {"title": "Lighthouse log", "text": "The keeper lit the lamp at dusk.\\nA schooner passed at nine.", \
                                "profile": "retrieval-only"}"""),
                                                @ExampleObject(
                                                        name = "conversation",
                                                        summary = "A conversation history",
                                                        value = """
                                {"title": "Chat with Caroline", "sessions": [{"dateTime": "1:56 pm on 8 May, 2023", "turns": \
                                [{"speaker": "Caroline", "text": "I adopted a dog named Biscuit!"}, \
                                {"speaker": "Mel", "text": "Congratulations!"}]}]}""")
                                            })))
    @LocationResponse(code = "202", description = "Accepted; ingestion queued (follow Location)")
    @LocationResponse(code = "200", description = "The same content was already stored: that document")
    @ApiResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @ApiResponse(responseCode = "413", ref = ApiDocs.CONTENT_TOO_LARGE)
    @ApiResponse(responseCode = "415", ref = ApiDocs.UNSUPPORTED_MEDIA_TYPE)
    ResponseEntity<Accepted> create(@RequestBody CreateDocument request) {
        return respond(intake.create(request));
    }

    /** The multipart form a file upload sends, for the spec: the handler reads the parts one by one. */
    @Schema(description = "A file and its optional settings")
    record DocumentFileUpload(
            @Schema(
                    description = "A UTF-8 .txt or .md file, or a PDF, DOCX, HTML or EPUB file",
                    type = "string",
                    format = "binary",
                    requiredMode = Schema.RequiredMode.REQUIRED)
            String file,

            @Schema(description = "Title; defaults to the file name without its extension", maxLength = 500)
            String title,

            @Schema(
                    description = "Index profile",
                    allowableValues = {IndexProfiles.STANDARD, IndexProfiles.RETRIEVAL_ONLY, IndexProfiles.DEEP},
                    defaultValue = IndexProfiles.STANDARD)
            String profile,

            @Schema(description = "Metadata as a JSON object, written as text")
            String metadata) {}

    @PostMapping(path = "/files", consumes = MediaType.MULTIPART_FORM_DATA_VALUE)
    @Operation(
            operationId = "uploadDocumentFile",
            summary = "Upload a file: .txt or .md (UTF-8), PDF, DOCX, HTML or EPUB",
            description = "The format is detected from the content and must match the file name's extension. The "
                    + "extracted, cleaned text becomes the canonical text; PDF pages and DOCX, EPUB and HTML headings "
                    + "become the document's `sections`, and citations name their `page` and `section`. Returns 202 "
                    + "and queues ingestion; re-uploading identical content returns the stored document with 200. "
                    + "Refused with 400 (encrypted, no text layer, too many embedded documents, zip bomb, "
                    + "unreadable, extraction timeout), 413 (file or text over the limit), 415 (format not accepted "
                    + "or content not matching the name) or 429 (too many extractions at once), each naming `file`.",
            requestBody =
                    @io.swagger.v3.oas.annotations.parameters.RequestBody(
                            required = true,
                            content =
                                    @Content(
                                            mediaType = MediaType.MULTIPART_FORM_DATA_VALUE,
                                            schema = @Schema(implementation = DocumentFileUpload.class))))
    @LocationResponse(code = "202", description = "Accepted; ingestion queued (follow Location)")
    @LocationResponse(code = "200", description = "The same content was already stored: that document")
    @ApiResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @ApiResponse(responseCode = "413", ref = ApiDocs.CONTENT_TOO_LARGE)
    @ApiResponse(responseCode = "415", ref = ApiDocs.UNSUPPORTED_MEDIA_TYPE)
    ResponseEntity<Accepted> uploadFile(
            @Parameter(hidden = true) @RequestPart("file") MultipartFile file,
            @Parameter(hidden = true) @RequestParam(required = false) String title,
            @Parameter(hidden = true) @RequestParam(required = false) String profile,
            @Parameter(hidden = true) @RequestParam(required = false) String metadata,
            @Parameter(hidden = true) MultipartHttpServletRequest form)
            throws IOException {
        refuseRepeatedParts(form);
        FileExtractor.formatOf(FileName.display(file.getOriginalFilename()), typeOf(file));
        return respond(intake.createFromUpload(file.getOriginalFilename(), file.getBytes(), title, profile, metadata));
    }

    /**
     * One file and each field at most once: the binding would otherwise keep the first file and join
     * two titles with a comma, storing something the client never sent.
     */
    private static void refuseRepeatedParts(MultipartHttpServletRequest form) {
        int files = form.getMultiFileMap().getOrDefault("file", List.of()).size();
        if (files > 1) {
            throw ApiProblem.invalid("file", "send one file per request; this one has " + files);
        }
        for (String field : List.of("title", "profile", "metadata")) {
            String[] values = form.getParameterValues(field);
            if (values != null && values.length > 1) {
                throw ApiProblem.invalid(field, field + " is given " + values.length + " times; give it once");
            }
        }
    }

    /** The part's media type without parameters; one that does not parse is no text type either. */
    private static String typeOf(MultipartFile file) {
        if (file.getContentType() == null) {
            return "application/octet-stream";
        }
        try {
            MediaType type = MediaType.parseMediaType(file.getContentType());
            return type.getType() + "/" + type.getSubtype();
        } catch (InvalidMediaTypeException e) {
            return file.getContentType();
        }
    }

    @GetMapping("/{id}")
    @Operation(
            operationId = "getDocument",
            description =
                    "Each ingestion stage with its status and progress: READY once the retrieval stages are done; LLM-built memories have states of their own (SKIPPED with the reason when they cannot be built). An uploaded file also shows its name, type, size, hash, pages and headings.",
            summary = "Status, ingestion progress per stage, and metadata")
    @ApiResponse(responseCode = "200", description = "The document")
    @ApiResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    DocumentView get(@PathVariable UUID id) {
        return views.view(tenant.id(), id).orElseThrow(() -> ApiProblem.notFound("Document", id));
    }

    @GetMapping
    @Operation(
            operationId = "listDocuments",
            description =
                    "Paged with `page` and `size`; each item is the document's summary (status, kind, counts, timestamps). Read one document for its stages.",
            summary = "Documents of the tenant, newest first")
    @ApiResponse(responseCode = "200", description = "One page of documents")
    @ApiResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    DocumentPage list(
            @Parameter(
                            description = "0-based page number",
                            schema = @Schema(type = "integer", format = "int32", minimum = "0", defaultValue = "0"))
                    @RequestParam(defaultValue = "0")
                    int page,
            @Parameter(
                            description = "Documents per page",
                            schema =
                                    @Schema(
                                            type = "integer",
                                            format = "int32",
                                            minimum = "1",
                                            maximum = "200",
                                            defaultValue = "20"))
                    @RequestParam(defaultValue = "20")
                    int size) {
        if (page < 0) {
            throw ApiProblem.invalid("page", "page must be >= 0");
        }
        if (size < 1 || size > 200) {
            throw ApiProblem.invalid("size", "size must be between 1 and 200");
        }
        // A long offset: page * size overflows int for a page far past the end, which is just empty.
        return new DocumentPage(
                views.list(tenant.id(), (long) page * size, size), page, size, views.count(tenant.id()));
    }

    @DeleteMapping("/{id}")
    @Operation(
            operationId = "deleteDocument",
            description =
                    "Removes its text, chunks, vectors and every memory built from it; questions still queued on it fail with the reason.",
            summary = "Delete the document and everything derived from it")
    @ApiResponse(responseCode = "204", description = "Deleted")
    @ApiResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    ResponseEntity<Void> delete(@PathVariable UUID id) {
        if (!intake.delete(id)) {
            throw ApiProblem.notFound("Document", id);
        }
        return ResponseEntity.noContent().build();
    }

    @GetMapping("/{id}/text")
    @Operation(
            operationId = "getDocumentText",
            summary = "A span [start, end) of the canonical text",
            description = "Offsets count UTF-16 code units into the canonical text; without them, the whole text. "
                    + "A citation's quote equals the text this returns for its start and end.")
    @ApiResponse(responseCode = "200", description = "The span and its text")
    @ApiResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @ApiResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    TextSpan text(
            @PathVariable UUID id,
            @Parameter(
                            description = "First UTF-16 code unit (default 0)",
                            schema = @Schema(type = "integer", format = "int32", minimum = "0"))
                    @RequestParam(required = false)
                    Integer start,
            @Parameter(
                            description = "End, exclusive (default: the text's length)",
                            schema = @Schema(type = "integer", format = "int32", minimum = "0"))
                    @RequestParam(required = false)
                    Integer end) {
        documents.find(tenant.id(), id).orElseThrow(() -> ApiProblem.notFound("Document", id));
        String text = documents.text(id);
        int from = start == null ? 0 : start;
        int to = end == null ? text.length() : end;
        if (from < 0 || from > text.length()) {
            throw ApiProblem.invalid("start", "start must be within [0, " + text.length() + "]");
        }
        if (to < from || to > text.length()) {
            throw ApiProblem.invalid("end", "end must be within [start, " + text.length() + "]");
        }
        return new TextSpan(id, from, to, text.substring(from, to));
    }

    @GetMapping("/{id}/turns")
    @Operation(
            operationId = "listTurns",
            description =
                    "Each turn's id, speaker and `[start, end)` span of the canonical text, in order: how citations into a conversation name their turn.",
            summary = "Where each conversation turn sits in the canonical text (empty for plain texts)")
    @ApiResponse(responseCode = "200", description = "The turns in order")
    @ApiResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    List<TurnSpan> turns(@PathVariable UUID id) {
        documents.find(tenant.id(), id).orElseThrow(() -> ApiProblem.notFound("Document", id));
        return views.turns(id);
    }

    @PostMapping(path = "/{id}/sessions", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(
            operationId = "appendSessions",
            summary = "Append sessions to a conversation",
            description =
                    "Adds the sessions after the stored ones (stored offsets never change) and returns 202; ingestion "
                            + "then processes only the new part. 409 for a TEXT document or while the document is being ingested.")
    @LocationResponse(code = "202", description = "Appended; ingestion of the new sessions queued")
    @ApiResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @ApiResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @ApiResponse(responseCode = "409", ref = ApiDocs.CONFLICT)
    @ApiResponse(responseCode = "413", ref = ApiDocs.CONTENT_TOO_LARGE)
    ResponseEntity<SessionsAppended> appendSessions(@PathVariable UUID id, @RequestBody AppendSessions request) {
        return ResponseEntity.accepted()
                .location(URI.create("/v1/documents/" + id))
                .body(appender.append(id, request));
    }

    @PostMapping("/{id}/reindex")
    @Operation(
            operationId = "reindexDocument",
            description =
                    "Without `stages`: resume what did not finish. With `stages`: rebuild them. 409 while a named stage is running; a stage that needs an LLM when none is configured is skipped with the reason.",
            summary = "Resume a failed ingestion and retry failed memories, and the gaps of finished ones, now; or "
                    + "rebuild the named stages (a retrieval stage with every later one; an enrichment stage alone, "
                    + "the document staying READY)")
    @LocationResponse(code = "202", description = "Reindexing queued")
    @ApiResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @ApiResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @ApiResponse(responseCode = "409", ref = ApiDocs.CONFLICT)
    ResponseEntity<Accepted> reindex(@PathVariable UUID id, @RequestBody(required = false) Reindex request) {
        intake.reindex(id, request == null ? null : request.stages());
        DocumentStatus status =
                documents.find(tenant.id(), id).map(DocumentInfo::status).orElse(DocumentStatus.QUEUED);
        return ResponseEntity.accepted()
                .location(URI.create("/v1/documents/" + id))
                .body(new Accepted(id, status, false));
    }

    private static ResponseEntity<Accepted> respond(Accepted accepted) {
        URI location = URI.create("/v1/documents/" + accepted.id());
        return accepted.created()
                ? ResponseEntity.accepted().location(location).body(accepted)
                : ResponseEntity.ok().location(location).body(accepted);
    }
}
