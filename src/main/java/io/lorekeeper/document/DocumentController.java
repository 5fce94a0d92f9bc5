package io.lorekeeper.document;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Set;
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

import io.lorekeeper.document.DocumentRequests.AppendSessions;
import io.lorekeeper.document.DocumentRequests.CreateDocument;
import io.lorekeeper.document.DocumentRequests.Reindex;
import io.lorekeeper.document.DocumentResponses.Accepted;
import io.lorekeeper.document.DocumentResponses.DocumentPage;
import io.lorekeeper.document.DocumentResponses.DocumentView;
import io.lorekeeper.document.DocumentResponses.SessionsAppended;
import io.lorekeeper.document.DocumentResponses.TextSpan;
import io.lorekeeper.document.DocumentResponses.TurnSpan;
import io.lorekeeper.platform.ApiProblem;
import io.lorekeeper.security.CurrentTenant;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

@RestController
@RequestMapping("/v1/documents")
@Tag(name = "Documents", description = "Ingest texts and conversations; follow their ingestion")
class DocumentController {

    private static final Set<String> TEXT_EXTENSIONS = Set.of("txt", "md", "markdown");
    private static final Set<String> TEXT_TYPES = Set.of("text/plain", "text/markdown", "text/x-markdown",
            "application/octet-stream");

    private final DocumentIntake intake;
    private final DocumentStore store;
    private final Documents documents;
    private final CurrentTenant tenant;
    private final SessionAppender appender;

    DocumentController(DocumentIntake intake, DocumentStore store, Documents documents, CurrentTenant tenant,
            SessionAppender appender) {
        this.intake = intake;
        this.store = store;
        this.documents = documents;
        this.tenant = tenant;
        this.appender = appender;
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Add a text or a conversation",
            description = "Returns 202 and queues ingestion; re-posting identical content returns the stored document with 200.")
    @ApiResponse(responseCode = "202", description = "Accepted; ingestion queued (follow Location)")
    @ApiResponse(responseCode = "200", description = "The same content was already stored: that document")
    ResponseEntity<Accepted> create(@RequestBody CreateDocument request) {
        return respond(intake.create(request));
    }

    @PostMapping(consumes = MediaType.MULTIPART_FORM_DATA_VALUE)
    @Operation(summary = "Upload a .txt or .md file (UTF-8)")
    @ApiResponse(responseCode = "202", description = "Accepted; ingestion queued (follow Location)")
    @ApiResponse(responseCode = "200", description = "The same content was already stored: that document")
    ResponseEntity<Accepted> upload(@RequestPart("file") MultipartFile file,
            @RequestParam(required = false) String title,
            @RequestParam(required = false) String profile,
            @RequestParam(required = false) String metadata) throws IOException {
        String name = file.getOriginalFilename() == null ? "" : file.getOriginalFilename();
        String extension = name.contains(".") ? name.substring(name.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT) : "";
        String type = typeOf(file);
        if (!TEXT_EXTENSIONS.contains(extension) || !TEXT_TYPES.contains(type.toLowerCase(Locale.ROOT))) {
            throw ApiProblem.unsupportedMediaType("file",
                    "only UTF-8 .txt and .md files are accepted; got '" + name + "' (" + type + ")");
        }
        return respond(intake.createFromUpload(name, file.getBytes(), title, profile, metadata));
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
    @Operation(summary = "Status, ingestion progress per stage, and metadata")
    DocumentView get(@PathVariable UUID id) {
        return store.view(tenant.id(), id).orElseThrow(() -> ApiProblem.notFound("Document", id));
    }

    @GetMapping
    @Operation(summary = "Documents of the tenant, newest first")
    DocumentPage list(@RequestParam(defaultValue = "0") int page, @RequestParam(defaultValue = "20") int size) {
        if (page < 0) {
            throw ApiProblem.invalid("page", "page must be >= 0");
        }
        if (size < 1 || size > 200) {
            throw ApiProblem.invalid("size", "size must be between 1 and 200");
        }
        // A long offset: page * size overflows int for a page far past the end, which is just empty.
        return new DocumentPage(store.list(tenant.id(), (long) page * size, size), page, size, store.count(tenant.id()));
    }

    @DeleteMapping("/{id}")
    @Operation(summary = "Delete the document and everything derived from it")
    ResponseEntity<Void> delete(@PathVariable UUID id) {
        if (!intake.delete(id)) {
            throw ApiProblem.notFound("Document", id);
        }
        return ResponseEntity.noContent().build();
    }

    @GetMapping("/{id}/text")
    @Operation(summary = "A span [start, end) of the canonical text (offsets in UTF-16 code units)")
    TextSpan text(@PathVariable UUID id, @RequestParam(required = false) Integer start,
            @RequestParam(required = false) Integer end) {
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
    @Operation(summary = "Where each conversation turn sits in the canonical text (empty for plain texts)")
    List<TurnSpan> turns(@PathVariable UUID id) {
        documents.find(tenant.id(), id).orElseThrow(() -> ApiProblem.notFound("Document", id));
        return store.turns(id);
    }

    @PostMapping(path = "/{id}/sessions", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Append sessions to a conversation",
            description = "Adds the sessions after the stored ones (stored offsets never change) and returns 202; ingestion "
                    + "then processes only the new part. 409 for a TEXT document or while the document is being ingested.")
    @ApiResponse(responseCode = "202", description = "Appended; ingestion of the new sessions queued")
    ResponseEntity<SessionsAppended> appendSessions(@PathVariable UUID id, @RequestBody AppendSessions request) {
        return ResponseEntity.accepted().location(URI.create("/v1/documents/" + id)).body(appender.append(id, request));
    }

    @PostMapping("/{id}/reindex")
    @Operation(summary = "Resume a failed ingestion and retry failed memories now, or rebuild the named stages "
            + "(a retrieval stage with every later one; an enrichment stage alone, the document staying READY)")
    @ApiResponse(responseCode = "202", description = "Reindexing queued")
    ResponseEntity<Accepted> reindex(@PathVariable UUID id, @RequestBody(required = false) Reindex request) {
        intake.reindex(id, request == null ? null : request.stages());
        DocumentStatus status = documents.find(tenant.id(), id).map(DocumentInfo::status).orElse(DocumentStatus.QUEUED);
        return ResponseEntity.accepted().location(URI.create("/v1/documents/" + id)).body(new Accepted(id, status, false));
    }

    private static ResponseEntity<Accepted> respond(Accepted accepted) {
        URI location = URI.create("/v1/documents/" + accepted.id());
        return accepted.created() ? ResponseEntity.accepted().location(location).body(accepted)
                : ResponseEntity.ok().location(location).body(accepted);
    }
}
